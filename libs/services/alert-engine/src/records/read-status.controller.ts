import { ApiSuccess, CurrentPrincipal, InputsFromQueryOrBody, Principal } from '@fleet/platform';
import { Param, Put, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation } from '@nestjs/swagger';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { AlertAccess } from '../common/alert-access';
import { utcDayOf } from '../common/record-day';
import { AlertRecordRoutes } from '../common/route-groups';
import { RecordDateParams } from '../common/route-inputs';
import { AlertRecordsService } from './alert-records.service';
import { AlertRecordV2, toAlertRecordV2 } from './dto/alert-record.v2';
import { ReadStatusInput } from './dto/record-inputs';

/** V2 (spec): marking one alert record read or unread. */
@AlertRecordRoutes()
export class ReadStatusController {
  constructor(
    private readonly access: AlertAccess,
    private readonly records: AlertRecordsService,
  ) {}

  @Put(':id/:date/update-read-status')
  @InputsFromQueryOrBody()
  @ApiOperation({
    operationId: 'Alerts_updateReadStatus',
    summary: 'Mark one alert record read or unread',
    description:
      '`{date}` is the UTC date of the record (`yyyy-MM-dd`, or an ISO 8601 date-time on that date). 404 when ' +
      'no record with that id on that date is reachable by the token. `isRead` as a query parameter, or ' +
      'in a JSON or form body. Answers the record as it is now.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data')
  @ApiBody({ type: ReadStatusInput, required: false })
  @ApiSuccess(AlertRecordV2, 'The record as it is now')
  async updateReadStatus(
    @CurrentPrincipal() principal: Principal,
    @Param() { id, date }: RecordDateParams,
    @Query() input: ReadStatusInput,
  ): Promise<AlertRecordV2> {
    const day = utcDayOf('date', date);
    const isRead = input.isRead;
    if (isRead === undefined) {
      throw new AlertEngineException(
        AlertEngineExceptionCode.InvalidRecordQuery,
        'isRead: is required (true or false), as a query parameter or in the body',
      );
    }
    const record = await this.records.setReadStatus(this.access.scopeOf(principal), id, day, isRead);
    return toAlertRecordV2(record, this.access.viewerOf(principal));
  }
}
