import {
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  envelope,
  Page,
  PageQuery,
  Principal,
} from '@fleet/platform';
import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { LEGACY_ALL, sliceOf } from '../../common/paging';
import { InsightRoutes, LegacyInsightRoutes } from '../../common/route-groups';
import { IdParam } from '../../common/route-inputs';
import { EngineCodeV2, LegacyEngineCodeV1, toEngineCodeV1, toEngineCodeV2 } from './dto/engine-code.dto';
import { EngineCodesService } from './engine-codes.service';

/** V2: the diagnostic trouble codes of one vehicle, explained (docs/engine-codes.md). */
@InsightRoutes()
export class EngineCodesController {
  constructor(private readonly codes: EngineCodesService) {}

  @Get('vehicles/:id/engine-codes')
  @ApiOperation({
    operationId: 'Insights_engineCodes',
    summary:
      'Diagnostic trouble codes of one vehicle with description, analysis, severity and detection location; active first',
  })
  @ApiPageOf(EngineCodeV2)
  async engineCodes(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: PageQuery,
  ): Promise<Page<EngineCodeV2>> {
    const { rows, total } = await this.codes.ofVehicle(principal, id, sliceOf(query));
    return envelope(rows.map(toEngineCodeV2), total, query);
  }
}

/** V1: `GET /api/devices/{id}/dtc-codes`, every code as a PascalCase array, no pagination. */
@LegacyInsightRoutes()
export class LegacyEngineCodesController {
  constructor(private readonly codes: EngineCodesService) {}

  @Get('devices/:id/dtc-codes')
  @ApiOperation({
    operationId: 'LegacyInsights_dtcCodes',
    summary: 'V1: diagnostic trouble codes of one vehicle (PascalCase), active first',
  })
  @ApiSuccess([LegacyEngineCodeV1])
  async dtcCodes(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
  ): Promise<LegacyEngineCodeV1[]> {
    const { rows } = await this.codes.ofVehicle(principal, id, LEGACY_ALL);
    return rows.map(toEngineCodeV1);
  }
}
