import { Counted, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { RecordScope } from '../common/alert-access';
import { UtcDay } from '../common/record-day';
import { AlertRecordView } from './alert-record-view';
import { AlertRecordQueries, RecordFilters } from './alert-records.queries';

export type { RecordFilters } from './alert-records.queries';

/**
 * Alert records as the routes read and mark them. Records are written by the engine; every read and
 * change here is bounded by the company of the records (the owner of the configuration that fired) and
 * the token's vehicle allowlist (alert-records.queries.ts).
 */
@Injectable()
export class AlertRecordsService {
  constructor(private readonly queries: AlertRecordQueries) {}

  /** A page of one company's records, newest first. */
  async page(scope: RecordScope, filters: RecordFilters, slice: Slice): Promise<Counted<AlertRecordView>> {
    return this.queries.page(scope, filters, slice);
  }

  /** V1 GetAlerts: at most `limit` records at or after `from`, newest first. */
  async newestSince(scope: RecordScope, from: Date, limit: number): Promise<AlertRecordView[]> {
    return this.queries.newestSince(scope, from, limit);
  }

  /**
   * Marks one record read or unread and returns it; 404 when no record of the scope has that id (on
   * `day`, when given: the date of the V2 route, which also spares reading every partition).
   */
  async setReadStatus(
    scope: RecordScope,
    id: number,
    day: UtcDay | undefined,
    isRead: boolean,
  ): Promise<AlertRecordView> {
    const changed = await this.queries.setReadStatus(scope, id, day, isRead);
    if (!changed) {
      throw new AlertEngineException(
        AlertEngineExceptionCode.RecordNotFound,
        day
          ? `Alert record ${id} of ${day.from.toISOString().slice(0, 10)} was not found.`
          : `Alert record ${id} was not found.`,
      );
    }
    return changed;
  }

  /** Marks every unread record of the scope read; returns how many changed. */
  async setAllRead(scope: RecordScope): Promise<number> {
    return this.queries.setAllRead(scope);
  }
}
