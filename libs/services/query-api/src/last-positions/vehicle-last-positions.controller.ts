import { ApiErrors, ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { IdParam } from '../common/route-inputs';
import { VehicleRoutes } from '../common/route-groups';
import { toPositionV2, VehiclePositionV2 } from '../position-records/dto/position-record.v2';
import { LastTimeOnlineItem, toLastTimeOnline } from './dto/last-time-online.dto';
import { LastPositionsService } from './last-positions.service';

/** V2 vehicle routes of last positions: one vehicle the token sees. */
@VehicleRoutes()
export class VehicleLastPositionsController {
  constructor(private readonly lastPositions: LastPositionsService) {}

  @Get(':id/last-position')
  @ApiOperation({ operationId: 'Vehicles_lastPosition', summary: 'Last position of one vehicle' })
  @ApiSuccess(VehiclePositionV2)
  @ApiErrors(404)
  async lastPosition(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
  ): Promise<VehiclePositionV2> {
    const { views, context } = await this.lastPositions.ofVehicle(principal, id);
    return toPositionV2(views[0], context);
  }

  @Get(':id/last-online')
  @ApiOperation({ operationId: 'Vehicles_lastOnline', summary: 'When one vehicle was last heard from' })
  @ApiSuccess(LastTimeOnlineItem)
  @ApiErrors(404)
  async lastOnline(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
  ): Promise<LastTimeOnlineItem> {
    return toLastTimeOnline(await this.lastPositions.lastSeenOfVehicle(principal, id), Date.now());
  }
}
