import { Actions } from '@fleet/contracts';
import { ApiException } from '@fleet/errors';
import {
  ApiAuthenticated,
  ApiLegacyErrors,
  ApiSuccess,
  CurrentPrincipal,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { VehicleAccess } from '../access/vehicle-access';
import { PositionReader, StoredPosition } from '../positions/position-reader';
import { LegacyPositionV1, toPositionV1 } from '../records/position-record.v1';
import { PositionViews } from '../records/position-views';
import { utcWithZ } from '../records/zoned-time';
import { roundedDistance } from './company-vehicles.controller';
import {
  CompanyIdParam,
  ImeiParam,
  LegacyCompanyQuery,
  LegacyNearestQuery,
  LegacyRangeQuery,
  LegacyVehicleQuery,
} from './route-inputs';
import { legacyRangeOf } from './time-range';
import { DeviceIdItem } from './vehicles.controller';

/** Most records a V1 list returns (V1 has no pagination); documented in docs/telemetry.md. */
export const LEGACY_LIST_LIMIT = 10_000;
const ALL = { limit: LEGACY_LIST_LIMIT, offset: 0 };

export class LegacyNearestItem {
  @ApiProperty({ type: LegacyPositionV1 }) vehicle!: LegacyPositionV1;
  @ApiProperty({ description: 'Rounded planar-degree distance, as a string', example: '0' })
  distance!: string;
  @ApiProperty({ description: 'Planar degrees' }) realDistance!: number;
}

export class LegacyNearestResult {
  @ApiProperty({ example: 'OK' }) Status!: string;
  @ApiProperty({ type: [LegacyNearestItem] }) result!: LegacyNearestItem[];
}

export class LegacyLastTimeOnline {
  @ApiProperty({ type: 'integer' }) VehicleId!: number;
  @ApiProperty() IMEI!: string;
  @ApiProperty({ example: '2024-03-31T10:00:00Z' }) LastTimeOnlineUtc!: string;
  @ApiProperty() SecondsAgo!: number;
}

export class LegacyDevice {
  @ApiProperty({ type: 'integer' }) Id!: number;
  @ApiProperty() Name!: string;
  @ApiProperty() IMEI!: string;
  @ApiProperty({ nullable: true, type: 'string' }) Vin!: string | null;
}

class LegacyOptionalCompanyQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: "Default: the token's company" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  compId?: number;
}

const lastTimeOnlineOf = (row: StoredPosition, now: number): LegacyLastTimeOnline => ({
  VehicleId: row.vehicle.id,
  IMEI: row.vehicle.imei,
  LastTimeOnlineUtc: utcWithZ(row.lastSeenAt),
  SecondsAgo: Math.max(0, Math.round((now - row.lastSeenAt.getTime()) / 1000)),
});

/** The V1 position routes: query parameters, PascalCase records, no pagination (docs/telemetry.md). */
@Controller('api')
@ApiTags('V1 positions')
@ApiAuthenticated({ legacy: true })
@ApiLegacyErrors(404, 422)
@RequiresAction(Actions.readVehicles)
export class LegacyPositionsController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly reader: PositionReader,
    private readonly views: PositionViews,
  ) {}

  @Post('GetAllLastPositionData/:companyId')
  @HttpCode(200)
  @ApiOperation({ summary: 'V1: last position of every vehicle mapped to the company' })
  @ApiSuccess([LegacyPositionV1])
  async allLastPositions(
    @CurrentPrincipal() principal: Principal,
    @Param() { companyId }: CompanyIdParam,
  ): Promise<LegacyPositionV1[]> {
    this.access.reachableCompany(principal, companyId);
    const { rows } = await this.reader.companyLastPositions(
      companyId,
      this.access.allowlistOf(principal),
      ALL,
    );
    const context = this.views.contextOf(principal);
    return (await this.views.ofLastPositions(rows)).map((view) => toPositionV1(view, context));
  }

  @Post('GetLastPositionData')
  @HttpCode(200)
  @ApiOperation({ summary: 'V1: last position of one vehicle' })
  @ApiSuccess(LegacyPositionV1)
  async lastPosition(
    @CurrentPrincipal() principal: Principal,
    @Query() { id }: LegacyVehicleQuery,
  ): Promise<LegacyPositionV1> {
    await this.access.visibleVehicle(principal, id);
    const stored = await this.reader.lastPosition(id);
    if (!stored) throw ApiException.notFound(`Vehicle ${id} has not reported a position yet.`);
    const [view] = await this.views.ofLastPositions([stored]);
    return toPositionV1(view, this.views.contextOf(principal));
  }

  @Post('GetPositionData')
  @HttpCode(200)
  @ApiOperation({
    summary: 'V1: position history of one vehicle in [from, to) UTC, oldest first (at most 10,000)',
  })
  @ApiSuccess([LegacyPositionV1])
  async positionData(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyRangeQuery,
  ): Promise<LegacyPositionV1[]> {
    await this.access.visibleVehicle(principal, query.id);
    const range = legacyRangeOf(query.from, query.to, 'UTC');
    const { rows } = await this.reader.history(query.id, range.from, range.to, ALL);
    const context = this.views.contextOf(principal);
    return (await this.views.ofHistory(rows)).map((view) => toPositionV1(view, context));
  }

  @Post('GetNearest')
  @HttpCode(200)
  @ApiOperation({
    summary: 'V1: vehicles of a company near a point; radius in metres (straight line), nearest first',
  })
  @ApiSuccess(LegacyNearestResult)
  async nearest(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyNearestQuery,
  ): Promise<LegacyNearestResult> {
    return this.nearestResult(principal, query, { num: query.num, radiusMetres: query.radius });
  }

  @Post('GetNearestVehicles')
  @HttpCode(200)
  @ApiOperation({
    summary: 'V1: as GetNearest, but radius in planar degrees on the rounded distance (the V2 semantics)',
  })
  @ApiSuccess(LegacyNearestResult)
  async nearestVehicles(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyNearestQuery,
  ): Promise<LegacyNearestResult> {
    return this.nearestResult(principal, query, { num: query.num, radiusDegrees: query.radius });
  }

  @Post('devices')
  @HttpCode(200)
  @ApiOperation({ summary: "V1: vehicles mapped to a company (default: the token's)" })
  @ApiSuccess([LegacyDevice])
  async devices(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyOptionalCompanyQuery,
  ): Promise<LegacyDevice[]> {
    const companyId = this.access.reachableCompany(principal, query.compId ?? principal.companyId);
    const { rows } = await this.reader.visibleVehicles(
      {},
      [companyId],
      this.access.allowlistOf(principal),
      ALL,
    );
    return rows.map((vehicle) => ({
      Id: vehicle.id,
      Name: vehicle.name,
      IMEI: vehicle.imei,
      Vin: vehicle.vin,
    }));
  }

  @Post('GetAllLastTimeOnline')
  @HttpCode(200)
  @ApiOperation({ summary: 'V1: when each vehicle of a company was last heard from' })
  @ApiSuccess([LegacyLastTimeOnline])
  async allLastTimeOnline(
    @CurrentPrincipal() principal: Principal,
    @Query() { compId }: LegacyCompanyQuery,
  ): Promise<LegacyLastTimeOnline[]> {
    this.access.reachableCompany(principal, compId);
    const { rows } = await this.reader.companyLastPositions(compId, this.access.allowlistOf(principal), ALL);
    const now = Date.now();
    return rows.map((row) => lastTimeOnlineOf(row, now));
  }

  @Post('LastTimeOnline')
  @HttpCode(200)
  @ApiOperation({ summary: 'V1: when one vehicle was last heard from' })
  @ApiSuccess(LegacyLastTimeOnline)
  async lastTimeOnline(
    @CurrentPrincipal() principal: Principal,
    @Query() { id }: LegacyVehicleQuery,
  ): Promise<LegacyLastTimeOnline> {
    await this.access.visibleVehicle(principal, id);
    const stored = await this.reader.lastPosition(id);
    if (!stored) throw ApiException.notFound(`Vehicle ${id} has not been online yet.`);
    return lastTimeOnlineOf(stored, Date.now());
  }

  @Get('GetDeviceId/:imei')
  @ApiOperation({ summary: 'V1: the vehicle of a tracker IMEI' })
  @ApiSuccess(DeviceIdItem)
  async deviceId(
    @CurrentPrincipal() principal: Principal,
    @Param() { imei }: ImeiParam,
  ): Promise<DeviceIdItem> {
    const { rows } = await this.reader.visibleVehicles(
      { imei },
      this.access.companiesOf(principal),
      this.access.allowlistOf(principal),
      { limit: 1, offset: 0 },
    );
    if (!rows[0]) throw ApiException.notFound(`No vehicle has the IMEI ${imei}.`);
    return { vehicleId: rows[0].id, vehicleName: rows[0].name };
  }

  private async nearestResult(
    principal: Principal,
    query: LegacyNearestQuery,
    filter: { num?: number; radiusMetres?: number; radiusDegrees?: number },
  ): Promise<LegacyNearestResult> {
    const companyId = this.access.reachableCompany(principal, query.compId);
    const { rows } = await this.reader.companyNearest(
      companyId,
      this.access.allowlistOf(principal),
      { lat: query.lat, lng: query.lng },
      filter,
      ALL,
    );
    const context = this.views.contextOf(principal);
    const views = await this.views.ofLastPositions(rows);
    return {
      Status: 'OK',
      result: views.map((view, index) => ({
        vehicle: toPositionV1(view, context),
        distance: String(roundedDistance(rows[index].realDistance)),
        realDistance: rows[index].realDistance,
      })),
    };
  }
}
