import { Actions } from '@fleet/contracts';
import { ApiException } from '@fleet/errors';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  Page,
  PageQuery,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { VehicleAccess } from '../access/vehicle-access';
import { PositionReader } from '../positions/position-reader';
import { VehicleIdentity } from '../records/position-view';
import { toPositionV2, VehiclePositionV2 } from '../records/position-record.v2';
import { PositionViews } from '../records/position-views';
import { utcWithoutOffset } from '../records/zoned-time';
import { LastTimeOnlineItem } from './company-vehicles.controller';
import { envelope, sliceOf } from './paging';
import { IdParam, ImeiParam, TimeRangeQuery, VehicleInfoQuery } from './route-inputs';
import { timeRangeOf } from './time-range';

export class VehicleInfo {
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() name!: string;
  @ApiProperty() imei!: string;
  @ApiProperty({ nullable: true, type: 'string' }) vin!: string | null;
  @ApiProperty({ type: [Number], description: "The token's companies the vehicle is mapped to" })
  companyIds!: number[];
}

export class DeviceIdItem {
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() vehicleName!: string;
}

const infoOf = (vehicle: VehicleIdentity & { companyIds: number[] }): VehicleInfo => ({
  vehicleId: vehicle.id,
  name: vehicle.name,
  imei: vehicle.imei,
  vin: vehicle.vin,
  companyIds: vehicle.companyIds,
});

/** Vehicle routes: any vehicle mapped to a company the token reaches, narrowed by its allowlist. */
@Controller('v2/api')
@ApiTags('Vehicles')
@ApiAuthenticated()
@ApiErrors(422)
@RequiresAction(Actions.readVehicles)
export class VehiclesController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly reader: PositionReader,
    private readonly views: PositionViews,
  ) {}

  @Post('vehicles/list')
  @HttpCode(200)
  @ApiOperation({ summary: 'Vehicles the token can see, by id' })
  @ApiPageOf(VehicleInfo)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQuery,
  ): Promise<Page<VehicleInfo>> {
    const { rows, total } = await this.reader.visibleVehicles(
      {},
      this.access.companiesOf(principal),
      this.access.allowlistOf(principal),
      sliceOf(query),
    );
    return envelope(rows.map(infoOf), total, query);
  }

  @Get('vehicles/info')
  @ApiOperation({ summary: 'Vehicle metadata by IMEI, vehicle id or VIN (exactly one)' })
  @ApiSuccess(VehicleInfo)
  @ApiErrors(404)
  async info(
    @CurrentPrincipal() principal: Principal,
    @Query() query: VehicleInfoQuery,
  ): Promise<VehicleInfo> {
    const given = [query.imei, query.vehicleId, query.vin].filter((value) => value !== undefined);
    if (given.length !== 1) throw ApiException.invalidInput('give exactly one of imei, vehicleId or vin');
    const { rows } = await this.reader.visibleVehicles(
      { imei: query.imei, vehicleId: query.vehicleId, vin: query.vin },
      this.access.companiesOf(principal),
      this.access.allowlistOf(principal),
      { limit: 1, offset: 0 },
    );
    if (!rows[0]) throw ApiException.notFound('No such vehicle.');
    return infoOf(rows[0]);
  }

  @Get('vehicles/:id/last-position')
  @ApiOperation({ summary: 'Last position of one vehicle' })
  @ApiSuccess(VehiclePositionV2)
  @ApiErrors(404)
  async lastPosition(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
  ): Promise<VehiclePositionV2> {
    await this.access.visibleVehicle(principal, id);
    const stored = await this.reader.lastPosition(id);
    if (!stored) throw ApiException.notFound(`Vehicle ${id} has not reported a position yet.`);
    const [view] = await this.views.ofLastPositions([stored]);
    return toPositionV2(view, this.views.contextOf(principal));
  }

  @Get('vehicles/:id/positions')
  @ApiOperation({
    summary: 'Position history of one vehicle in a time range (default: the last 24 hours), oldest first',
  })
  @ApiPageOf(VehiclePositionV2)
  @ApiErrors(404)
  async positions(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: TimeRangeQuery,
  ): Promise<Page<VehiclePositionV2>> {
    await this.access.visibleVehicle(principal, id);
    const range = timeRangeOf(query.from, query.to);
    const { rows, total } = await this.reader.history(id, range.from, range.to, sliceOf(query));
    const context = this.views.contextOf(principal);
    const views = await this.views.ofHistory(rows);
    return envelope(
      views.map((view) => toPositionV2(view, context)),
      total,
      query,
    );
  }

  @Get('vehicles/:id/last-online')
  @ApiOperation({ summary: 'When one vehicle was last heard from' })
  @ApiSuccess(LastTimeOnlineItem)
  @ApiErrors(404)
  async lastOnline(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
  ): Promise<LastTimeOnlineItem> {
    const vehicle = await this.access.visibleVehicle(principal, id);
    const stored = await this.reader.lastPosition(id);
    if (!stored) throw ApiException.notFound(`Vehicle ${id} has not been online yet.`);
    return {
      vehicleId: vehicle.id,
      imei: vehicle.imei,
      lastTimeOnlineUtc: utcWithoutOffset(stored.lastSeenAt),
      secondsAgo: Math.max(0, Math.round((Date.now() - stored.lastSeenAt.getTime()) / 1000)),
    };
  }

  @Get('vehicles/:imei/device-ids')
  @ApiOperation({ summary: 'Vehicle ids of a tracker IMEI' })
  @ApiSuccess([DeviceIdItem])
  @ApiErrors(404)
  async deviceIds(
    @CurrentPrincipal() principal: Principal,
    @Param() { imei }: ImeiParam,
  ): Promise<DeviceIdItem[]> {
    const { rows } = await this.reader.visibleVehicles(
      { imei },
      this.access.companiesOf(principal),
      this.access.allowlistOf(principal),
      { limit: 100, offset: 0 },
    );
    if (!rows.length) throw ApiException.notFound(`No vehicle has the IMEI ${imei}.`);
    return rows.map((vehicle) => ({ vehicleId: vehicle.id, vehicleName: vehicle.name }));
  }
}
