import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiPageOf,
  CurrentPrincipal,
  Page,
  PageQuery,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { VehicleAccess } from '../access/vehicle-access';
import { PositionReader } from '../positions/position-reader';
import { toPositionV2, VehiclePositionV2 } from '../records/position-record.v2';
import { PositionViews } from '../records/position-views';
import { utcWithoutOffset } from '../records/zoned-time';
import { IdParam, LastPositionQuery, NearestQuery } from './route-inputs';
import { envelope, sliceOf } from './paging';

export class LastTimeOnlineItem {
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() imei!: string;
  @ApiProperty({ description: 'UTC, without offset', example: '2024-03-31T10:00:00' })
  lastTimeOnlineUtc!: string;
  @ApiProperty({ description: 'seconds since then' }) secondsAgo!: number;
}

export class NearestItem {
  @ApiProperty({ type: VehiclePositionV2 }) vehicle!: VehiclePositionV2;
  @ApiProperty({ description: 'Planar degrees rounded to a multiple of 100 (as the spec defines it)' })
  distance!: number;
  @ApiProperty({ description: 'Straight-line distance in planar degrees' }) realDistance!: number;
}

/** Planar-degree distance rounded to a multiple of 100, as the spec defines `distance`. */
export const roundedDistance = (realDistance: number): number => Math.round(realDistance / 100) * 100;

/** Company routes of positions: every vehicle mapped to the `{id}` company the token reaches. */
@Controller('v2/api/companies/:id/vehicles')
@ApiTags('Positions')
@ApiAuthenticated()
@ApiErrors(404, 422)
@RequiresAction(Actions.readVehicles)
export class CompanyVehiclesController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly reader: PositionReader,
    private readonly views: PositionViews,
  ) {}

  @Get('last-position')
  @ApiOperation({
    summary: 'Last position of every vehicle mapped to the company (vehicles that never reported are absent)',
  })
  @ApiPageOf(VehiclePositionV2)
  async lastPositions(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: LastPositionQuery,
  ): Promise<Page<VehiclePositionV2>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { rows, total } = await this.reader.companyLastPositions(
      companyId,
      this.access.allowlistOf(principal),
      sliceOf(query),
    );
    const context = this.views.contextOf(principal);
    const views = await this.views.ofLastPositions(rows);
    return envelope(
      views.map((view) => toPositionV2(view, context)),
      total,
      query,
    );
  }

  @Get('last-time-online')
  @ApiOperation({ summary: 'When each vehicle of the company was last heard from' })
  @ApiPageOf(LastTimeOnlineItem)
  async lastTimeOnline(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: PageQuery,
  ): Promise<Page<LastTimeOnlineItem>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { rows, total } = await this.reader.companyLastPositions(
      companyId,
      this.access.allowlistOf(principal),
      sliceOf(query),
    );
    const now = Date.now();
    return envelope(
      rows.map((row) => ({
        vehicleId: row.vehicle.id,
        imei: row.vehicle.imei,
        lastTimeOnlineUtc: utcWithoutOffset(row.lastSeenAt),
        secondsAgo: Math.max(0, Math.round((now - row.lastSeenAt.getTime()) / 1000)),
      })),
      total,
      query,
    );
  }

  @Get('nearest')
  @ApiOperation({
    summary: 'Vehicles of the company near a point, nearest first',
    description:
      'radius filters on the rounded planar-degree distance; num caps the count after it; then the page.',
  })
  @ApiPageOf(NearestItem)
  async nearest(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: NearestQuery,
  ): Promise<Page<NearestItem>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { rows, total } = await this.reader.companyNearest(
      companyId,
      this.access.allowlistOf(principal),
      { lat: query.lat, lng: query.lng },
      { num: query.num, radiusDegrees: query.radius },
      sliceOf(query),
    );
    const context = this.views.contextOf(principal);
    const views = await this.views.ofLastPositions(rows);
    return envelope(
      views.map((view, index) => ({
        vehicle: toPositionV2(view, context),
        distance: roundedDistance(rows[index].realDistance),
        realDistance: rows[index].realDistance,
      })),
      total,
      query,
    );
  }
}
