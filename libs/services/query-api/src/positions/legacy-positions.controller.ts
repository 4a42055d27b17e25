import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { LEGACY_ALL } from '../common/paging';
import { LegacyPositionRoutes } from '../common/route-groups';
import { LegacyRangeQuery } from '../common/route-inputs';
import { legacyRangeOf } from '../common/time-range';
import { LegacyPositionV1, toPositionV1 } from '../position-records/dto/position-record.v1';
import { PositionsService } from './positions.service';

/** V1: the position history of one vehicle, unpaginated. */
@LegacyPositionRoutes()
export class LegacyPositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Post('GetPositionData')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyPositions_positionData',
    summary: 'V1: position history of one vehicle in [from, to) UTC, oldest first (at most 10,000)',
  })
  @ApiSuccess([LegacyPositionV1])
  async positionData(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyRangeQuery,
  ): Promise<LegacyPositionV1[]> {
    const range = legacyRangeOf(query.from, query.to, 'UTC');
    const { views, context } = await this.positions.historyOf(principal, query.id, range, LEGACY_ALL);
    return views.map((view) => toPositionV1(view, context));
  }
}
