import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AlertAccess } from '../common/alert-access';
import { utcDayOf, utcInstantOf } from '../common/record-day';
import { LegacyAlertRoutes } from '../common/route-groups';
import { AlertRecordsService } from './alert-records.service';
import { AlertRecordV1, toAlertRecordV1 } from './dto/alert-record.v1';
import {
  LegacyAlertsQuery,
  LegacyCompanyQuery,
  LegacySetAlertAsReadQuery,
  ReadCount,
} from './dto/record-inputs';

/** V1 alert routes: query parameters, camelCase records, no pagination (docs/alerts.md, Routes). */
@LegacyAlertRoutes()
export class LegacyAlertRecordsController {
  constructor(
    private readonly access: AlertAccess,
    private readonly records: AlertRecordsService,
  ) {}

  @Post('GetAlerts')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyAlerts_getAlerts',
    summary: 'V1: at most `num` (1 to 100) alert records of the company from `from` on, newest first',
  })
  @ApiSuccess([AlertRecordV1])
  async getAlerts(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyAlertsQuery,
  ): Promise<AlertRecordV1[]> {
    const companyId = this.access.reachableCompany(principal, query.compId);
    const from = utcInstantOf('from', query.from);
    const records = await this.records.newestSince(
      this.access.scopeOfCompany(principal, companyId),
      from,
      query.num,
    );
    const viewer = this.access.viewerOf(principal);
    return records.map((record) => toAlertRecordV1(record, viewer));
  }

  @Post('SetAlertAsRead')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyAlerts_setAlertAsRead',
    summary: 'V1: mark one alert record read (`date`, its UTC date, is optional)',
  })
  @ApiSuccess(AlertRecordV1, 'The record as it is now')
  async setAlertAsRead(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacySetAlertAsReadQuery,
  ): Promise<AlertRecordV1> {
    const day = query.date === undefined ? undefined : utcDayOf('date', query.date);
    const record = await this.records.setReadStatus(this.access.scopeOf(principal), query.id, day, true);
    return toAlertRecordV1(record, this.access.viewerOf(principal));
  }

  @Post('SetAllAlertAsRead')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyAlerts_setAllAlertAsRead',
    summary: 'V1: mark every unread alert record of the company read',
  })
  @ApiSuccess(ReadCount, 'How many records changed')
  async setAllAlertAsRead(
    @CurrentPrincipal() principal: Principal,
    @Query() { compId }: LegacyCompanyQuery,
  ): Promise<ReadCount> {
    const companyId = this.access.reachableCompany(principal, compId);
    return { updated: await this.records.setAllRead(this.access.scopeOfCompany(principal, companyId)) };
  }
}
