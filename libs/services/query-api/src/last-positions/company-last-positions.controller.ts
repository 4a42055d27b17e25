import { ApiPageOf, CurrentPrincipal, envelope, Page, PageQuery, Principal } from '@fleet/platform';
import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CompanyVehicleRoutes } from '../common/route-groups';
import { sliceOf } from '../common/paging';
import { IdParam } from '../common/route-inputs';
import { VehicleAccess } from '../common/vehicle-access';
import { toPositionV2, VehiclePositionV2 } from '../position-records/dto/position-record.v2';
import { LastPositionQuery } from './dto/last-position.query';
import { LastTimeOnlineItem, toLastTimeOnline } from './dto/last-time-online.dto';
import { LastPositionsService } from './last-positions.service';

/** V2 company routes of last positions: every vehicle mapped to the `{id}` company the token reaches. */
@CompanyVehicleRoutes()
export class CompanyLastPositionsController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly service: LastPositionsService,
  ) {}

  @Get('last-position')
  @ApiOperation({
    operationId: 'CompanyVehicles_lastPositions',
    summary: 'Last position of every vehicle mapped to the company (vehicles that never reported are absent)',
  })
  @ApiPageOf(VehiclePositionV2)
  async lastPositions(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: LastPositionQuery,
  ): Promise<Page<VehiclePositionV2>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { views, total, context } = await this.service.ofCompany(principal, companyId, sliceOf(query));
    return envelope(
      views.map((view) => toPositionV2(view, context)),
      total,
      query,
    );
  }

  @Get('last-time-online')
  @ApiOperation({
    operationId: 'CompanyVehicles_lastTimeOnline',
    summary: 'When each vehicle of the company was last heard from',
  })
  @ApiPageOf(LastTimeOnlineItem)
  async lastTimeOnline(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: PageQuery,
  ): Promise<Page<LastTimeOnlineItem>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { rows, total } = await this.service.lastSeenOfCompany(principal, companyId, sliceOf(query));
    const now = Date.now();
    return envelope(
      rows.map((seen) => toLastTimeOnline(seen, now)),
      total,
      query,
    );
  }
}
