import { ApiErrors, ApiPageOf, CurrentPrincipal, envelope, Page, Principal } from '@fleet/platform';
import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { sliceOf } from '../common/paging';
import { IdParam, TimeRangeQuery } from '../common/route-inputs';
import { VehicleRoutes } from '../common/route-groups';
import { timeRangeOf } from '../common/time-range';
import { toPositionV2, VehiclePositionV2 } from '../position-records/dto/position-record.v2';
import { PositionsService } from './positions.service';

/** V2: the position history of one vehicle. */
@VehicleRoutes()
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Get(':id/positions')
  @ApiOperation({
    operationId: 'Vehicles_positions',
    summary: 'Position history of one vehicle in a time range (default: the last 24 hours), oldest first',
  })
  @ApiPageOf(VehiclePositionV2)
  @ApiErrors(404)
  async history(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: TimeRangeQuery,
  ): Promise<Page<VehiclePositionV2>> {
    const range = timeRangeOf(query.from, query.to);
    const { views, total, context } = await this.positions.historyOf(principal, id, range, sliceOf(query));
    return envelope(
      views.map((view) => toPositionV2(view, context)),
      total,
      query,
    );
  }
}
