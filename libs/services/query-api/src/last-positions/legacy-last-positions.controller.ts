import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { LEGACY_ALL } from '../common/paging';
import { CompanyIdParam, LegacyCompanyQuery, LegacyVehicleQuery } from '../common/route-inputs';
import { LegacyPositionRoutes } from '../common/route-groups';
import { VehicleAccess } from '../common/vehicle-access';
import { LegacyPositionV1, toPositionV1 } from '../position-records/dto/position-record.v1';
import { LegacyLastTimeOnline, toLegacyLastTimeOnline } from './dto/last-time-online.dto';
import { LastPositionsService } from './last-positions.service';

/** The V1 last-position routes: query parameters, PascalCase records, no pagination (docs/telemetry.md). */
@LegacyPositionRoutes()
export class LegacyLastPositionsController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly lastPositions: LastPositionsService,
  ) {}

  @Post('GetAllLastPositionData/:companyId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyPositions_allLastPositions',
    summary: 'V1: last position of every vehicle mapped to the company',
  })
  @ApiSuccess([LegacyPositionV1])
  async allLastPositions(
    @CurrentPrincipal() principal: Principal,
    @Param() { companyId }: CompanyIdParam,
  ): Promise<LegacyPositionV1[]> {
    this.access.reachableCompany(principal, companyId);
    const { views, context } = await this.lastPositions.ofCompany(principal, companyId, LEGACY_ALL);
    return views.map((view) => toPositionV1(view, context));
  }

  @Post('GetLastPositionData')
  @HttpCode(200)
  @ApiOperation({ operationId: 'LegacyPositions_lastPosition', summary: 'V1: last position of one vehicle' })
  @ApiSuccess(LegacyPositionV1)
  async lastPosition(
    @CurrentPrincipal() principal: Principal,
    @Query() { id }: LegacyVehicleQuery,
  ): Promise<LegacyPositionV1> {
    const { views, context } = await this.lastPositions.ofVehicle(principal, id);
    return toPositionV1(views[0], context);
  }

  @Post('GetAllLastTimeOnline')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyPositions_allLastTimeOnline',
    summary: 'V1: when each vehicle of a company was last heard from',
  })
  @ApiSuccess([LegacyLastTimeOnline])
  async allLastTimeOnline(
    @CurrentPrincipal() principal: Principal,
    @Query() { compId }: LegacyCompanyQuery,
  ): Promise<LegacyLastTimeOnline[]> {
    this.access.reachableCompany(principal, compId);
    const { rows } = await this.lastPositions.lastSeenOfCompany(principal, compId, LEGACY_ALL);
    const now = Date.now();
    return rows.map((seen) => toLegacyLastTimeOnline(seen, now));
  }

  @Post('LastTimeOnline')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyPositions_lastTimeOnline',
    summary: 'V1: when one vehicle was last heard from',
  })
  @ApiSuccess(LegacyLastTimeOnline)
  async lastTimeOnline(
    @CurrentPrincipal() principal: Principal,
    @Query() { id }: LegacyVehicleQuery,
  ): Promise<LegacyLastTimeOnline> {
    return toLegacyLastTimeOnline(await this.lastPositions.lastSeenOfVehicle(principal, id), Date.now());
  }
}
