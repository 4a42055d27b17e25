import { ApiPageOf, ApiSuccess, CurrentPrincipal, envelope, Page, Principal, sliceOf } from '@fleet/platform';
import { Get, Param, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { AlertAccess } from '../common/alert-access';
import { CompanyAlertRoutes } from '../common/route-groups';
import { CompanyParam } from '../common/route-inputs';
import { AlertRecordsService, RecordFilters } from './alert-records.service';
import { AlertRecordV2, toAlertRecordV2 } from './dto/alert-record.v2';
import { AlertRecordQuery, ReadCount } from './dto/record-inputs';

/** V2 (spec): a company's alert records, and marking them all read. */
@CompanyAlertRoutes()
export class AlertRecordsController {
  constructor(
    private readonly access: AlertAccess,
    private readonly records: AlertRecordsService,
  ) {}

  @Get('alert-records')
  @ApiOperation({
    operationId: 'Alerts_records',
    summary: "Alert records of the company's configurations, newest first",
    description:
      'Only records of vehicles on the allowlist of the token, if it has one. `from`, `to`, `vehicleId`, ' +
      '`alertTypeId` and `isRead` are extensions of the spec.',
  })
  @ApiPageOf(AlertRecordV2)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: CompanyParam,
    @Query() query: AlertRecordQuery,
  ): Promise<Page<AlertRecordV2>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { rows, total } = await this.records.page(
      this.access.scopeOfCompany(principal, companyId),
      filtersOf(query),
      sliceOf(query),
    );
    const viewer = this.access.viewerOf(principal);
    return envelope(
      rows.map((record) => toAlertRecordV2(record, viewer)),
      total,
      query,
    );
  }

  @Put('set-all-alerts-read')
  @ApiOperation({
    operationId: 'Alerts_setAllRead',
    summary:
      'Mark every unread alert record of the company read (of the allowlisted vehicles, if the token has a list)',
  })
  @ApiSuccess(ReadCount, 'How many records changed')
  async setAllRead(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: CompanyParam,
  ): Promise<ReadCount> {
    const companyId = this.access.reachableCompany(principal, id);
    return { updated: await this.records.setAllRead(this.access.scopeOfCompany(principal, companyId)) };
  }
}

function filtersOf(query: AlertRecordQuery): RecordFilters {
  const from = query.from === undefined ? undefined : new Date(query.from);
  const to = query.to === undefined ? undefined : new Date(query.to);
  if (from && to && from.getTime() >= to.getTime()) {
    throw new AlertEngineException(AlertEngineExceptionCode.InvalidRecordQuery, 'from: must be before to');
  }
  return { from, to, vehicleId: query.vehicleId, alertTypeId: query.alertTypeId, isRead: query.isRead };
}
