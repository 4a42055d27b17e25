import { ApiPageOf, ApiSuccess, CurrentPrincipal, envelope, Page, Principal } from '@fleet/platform';
import { Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { LEGACY_ALL, sliceOf } from '../../common/paging';
import { InsightRoutes, LegacyInsightRoutes } from '../../common/route-groups';
import { LegacyCompanyQuery } from '../../common/route-inputs';
import { VehicleAccess } from '../../common/vehicle-access';
import { BatteryHealthService } from './battery-health.service';
import {
  BatteryHealthQuery,
  BatteryHealthV2,
  LegacyBatteryHealthV1,
  pageQueryOf,
  toBatteryHealthV1,
  toBatteryHealthV2,
} from './dto/battery-health.dto';

/** V2: battery health of the token's company's vehicles, a page at a time (docs/insights.md). */
@InsightRoutes()
export class BatteryHealthController {
  constructor(private readonly batteries: BatteryHealthService) {}

  @Get('battery-health')
  @ApiOperation({
    operationId: 'Insights_batteryHealth',
    summary:
      "Battery health of the token's company's vehicles: resting and cranking voltage, status, 30-day trend, days to critical",
  })
  @ApiPageOf(BatteryHealthV2)
  async batteryHealth(
    @CurrentPrincipal() principal: Principal,
    @Query() query: BatteryHealthQuery,
  ): Promise<Page<BatteryHealthV2>> {
    const page = pageQueryOf(query);
    const { rows, total } = await this.batteries.ofCompany(principal, principal.companyId, sliceOf(page));
    return envelope(rows.map(toBatteryHealthV2), total, page);
  }
}

/** V1: `GetCompanyVehiclesBatteryHealth`, the company as `compId`, every vehicle, PascalCase items. */
@LegacyInsightRoutes()
export class LegacyBatteryHealthController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly batteries: BatteryHealthService,
  ) {}

  @Post('GetCompanyVehiclesBatteryHealth')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyInsights_companyBatteryHealth',
    summary: 'V1: battery health of every vehicle mapped to the company `compId`',
  })
  @ApiSuccess([LegacyBatteryHealthV1])
  async companyBatteryHealth(
    @CurrentPrincipal() principal: Principal,
    @Query() { compId }: LegacyCompanyQuery,
  ): Promise<LegacyBatteryHealthV1[]> {
    const companyId = this.access.reachableCompany(principal, compId);
    const { rows } = await this.batteries.ofCompany(principal, companyId, LEGACY_ALL);
    return rows.map(toBatteryHealthV1);
  }
}
