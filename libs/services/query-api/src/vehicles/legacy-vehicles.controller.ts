import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { LEGACY_ALL } from '../common/paging';
import { ImeiParam } from '../common/route-inputs';
import { LegacyPositionRoutes } from '../common/route-groups';
import { DeviceIdItem, LegacyDevice, toDeviceId, toLegacyDevice } from './dto/vehicle-info.dto';
import { LegacyOptionalCompanyQuery } from './dto/vehicle-lookup.query';
import { VehiclesService } from './vehicles.service';

/** V1 vehicle routes. */
@LegacyPositionRoutes()
export class LegacyVehiclesController {
  constructor(private readonly vehicles: VehiclesService) {}

  @Post('devices')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyPositions_devices',
    summary: "V1: vehicles mapped to a company (default: the token's)",
  })
  @ApiSuccess([LegacyDevice])
  async devices(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyOptionalCompanyQuery,
  ): Promise<LegacyDevice[]> {
    const { rows } = await this.vehicles.ofCompany(
      principal,
      query.compId ?? principal.companyId,
      LEGACY_ALL,
    );
    return rows.map(toLegacyDevice);
  }

  @Get('GetDeviceId/:imei')
  @ApiOperation({ operationId: 'LegacyPositions_deviceId', summary: 'V1: the vehicle of a tracker IMEI' })
  @ApiSuccess(DeviceIdItem)
  async deviceId(
    @CurrentPrincipal() principal: Principal,
    @Param() { imei }: ImeiParam,
  ): Promise<DeviceIdItem> {
    const [vehicle] = await this.vehicles.byImei(principal, imei, 1);
    return toDeviceId(vehicle);
  }
}
