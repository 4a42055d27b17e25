import {
  ApiErrors,
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  envelope,
  Page,
  PageQuery,
  Principal,
} from '@fleet/platform';
import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { sliceOf } from '../common/paging';
import { ImeiParam } from '../common/route-inputs';
import { VehicleRoutes } from '../common/route-groups';
import { DeviceIdItem, toDeviceId, toVehicleInfo, VehicleInfo } from './dto/vehicle-info.dto';
import { VehicleInfoQuery } from './dto/vehicle-lookup.query';
import { VehiclesService } from './vehicles.service';

/** Most vehicles one IMEI lookup lists. */
const IMEI_LOOKUP_LIMIT = 100;

/** V2 vehicle routes: any vehicle mapped to a company the token reaches, narrowed by its allowlist. */
@VehicleRoutes()
export class VehiclesController {
  constructor(private readonly vehicles: VehiclesService) {}

  @Post('list')
  @HttpCode(200)
  @ApiOperation({ operationId: 'Vehicles_list', summary: 'Vehicles the token can see, by id' })
  @ApiPageOf(VehicleInfo)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQuery,
  ): Promise<Page<VehicleInfo>> {
    const { rows, total } = await this.vehicles.list(principal, sliceOf(query));
    return envelope(rows.map(toVehicleInfo), total, query);
  }

  @Get('info')
  @ApiOperation({
    operationId: 'Vehicles_info',
    summary: 'Vehicle metadata by IMEI, vehicle id or VIN (exactly one)',
  })
  @ApiSuccess(VehicleInfo)
  @ApiErrors(404)
  async info(
    @CurrentPrincipal() principal: Principal,
    @Query() query: VehicleInfoQuery,
  ): Promise<VehicleInfo> {
    return toVehicleInfo(
      await this.vehicles.lookUp(principal, { imei: query.imei, vehicleId: query.vehicleId, vin: query.vin }),
    );
  }

  @Get(':imei/device-ids')
  @ApiOperation({ operationId: 'Vehicles_deviceIds', summary: 'Vehicle ids of a tracker IMEI' })
  @ApiSuccess([DeviceIdItem])
  @ApiErrors(404)
  async deviceIds(
    @CurrentPrincipal() principal: Principal,
    @Param() { imei }: ImeiParam,
  ): Promise<DeviceIdItem[]> {
    return (await this.vehicles.byImei(principal, imei, IMEI_LOOKUP_LIMIT)).map(toDeviceId);
  }
}
