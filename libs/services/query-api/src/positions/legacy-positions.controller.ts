import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiLegacyErrors,
  ApiSuccess,
  CurrentPrincipal,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { LEGACY_ALL } from '../common/paging';
import { LegacyRangeQuery } from '../common/route-inputs';
import { legacyRangeOf } from '../common/time-range';
import { LegacyPositionV1, toPositionV1 } from '../position-records/dto/position-record.v1';
import { PositionsService } from './positions.service';

/** V1: the position history of one vehicle, unpaginated. */
@Controller('api')
@ApiTags('V1 positions')
@ApiAuthenticated({ legacy: true })
@ApiLegacyErrors(404, 422)
@RequiresAction(Actions.readVehicles)
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
