import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { InsightRoutes, LegacyInsightRoutes } from '../../common/route-groups';
import { IdParam } from '../../common/route-inputs';
import { QueryApiException, QueryApiExceptionCode } from '../../query-api.exception';
import {
  LegacySafetyScoreQuery,
  LegacySafetyScoreV1,
  SafetyScoreV2,
  ScoreWindowQuery,
  toSafetyScoreV1,
  toSafetyScoreV2,
} from './dto/safety-score.dto';
import { SafetyScoreService } from './safety-score.service';

/** V2: the safety score of one vehicle over a window (docs/insights.md, Safety score). */
@InsightRoutes()
export class SafetyScoreController {
  constructor(private readonly scores: SafetyScoreService) {}

  @Get('safety-score/:id')
  @ApiOperation({
    operationId: 'Insights_safetyScore',
    summary: 'Safety score (0–100) of one vehicle over a window, with the figures it came from',
  })
  @ApiSuccess(SafetyScoreV2)
  async safetyScore(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: ScoreWindowQuery,
  ): Promise<SafetyScoreV2> {
    const { subject, result } = await this.scores.scoreOf(principal, id, query);
    return toSafetyScoreV2(subject, result);
  }
}

/** V1: `GetSafetyScore`, query parameters, PascalCase body. */
@LegacyInsightRoutes()
export class LegacySafetyScoreController {
  constructor(private readonly scores: SafetyScoreService) {}

  @Post('GetSafetyScore')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyInsights_safetyScore',
    summary: 'V1: safety score of one vehicle (`vehicleId`, formerly `id`) over a window',
  })
  @ApiSuccess(LegacySafetyScoreV1)
  async safetyScore(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacySafetyScoreQuery,
  ): Promise<LegacySafetyScoreV1> {
    const vehicleId = query.vehicleId ?? query.id;
    if (vehicleId === undefined) {
      throw new QueryApiException(
        QueryApiExceptionCode.InvalidVehicle,
        'vehicleId: is required (or its former name id)',
      );
    }
    if (query.id !== undefined && query.vehicleId !== undefined && query.id !== query.vehicleId) {
      throw new QueryApiException(
        QueryApiExceptionCode.InvalidVehicle,
        'vehicleId: differs from id, its former name; give one of them',
      );
    }
    const { subject, result } = await this.scores.scoreOf(principal, vehicleId, query);
    return toSafetyScoreV1(subject, result);
  }
}
