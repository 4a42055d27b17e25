import { Counted, PagedRow, pagedRows, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { ALERTS_SCHEMA } from '../alert-engine.schema';
import { RecordScope } from '../common/alert-access';
import { UtcDay } from '../common/record-day';
import { AlertRecordRow, AlertRecordView, RECORD_COLUMNS, toRecordView } from './alert-record-view';

/** Filters of the V2 record listing (extensions of the spec's route); every one optional. */
export interface RecordFilters {
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  vehicleId?: number;
  alertTypeId?: number;
  isRead?: boolean;
}

/** Newest first, and among records of one instant the one written last first. */
const NEWEST_FIRST = 'utc_time DESC, id DESC';

/**
 * Alert records as the routes read and mark them. Records are written by the engine; every
 * statement here is bounded by the company of the records (`company_id`, the owner of the
 * configuration that fired) and the token's vehicle allowlist, and, where it can be, by time, so that
 * PostgreSQL reads only the monthly partitions concerned.
 */
@Injectable()
export class AlertRecordsService {
  constructor(@InjectDataSource(ALERTS_SCHEMA) private readonly dataSource: DataSource) {}

  /** A page of one company's records, newest first. */
  async page(scope: RecordScope, filters: RecordFilters, slice: Slice): Promise<Counted<AlertRecordView>> {
    // Open ends as infinities, not as `$n IS NULL OR ...`: a plain range is an index range and prunes partitions.
    const where = `company_id = ANY($1::int[]) AND utc_time >= $2 AND utc_time < $3
      AND ($4::int IS NULL OR vehicle_id = $4) AND ($5::smallint IS NULL OR alert_type_id = $5)
      AND ($6::boolean IS NULL OR is_read = $6) AND ($7::int[] IS NULL OR vehicle_id = ANY($7))`;
    const rows: PagedRow<AlertRecordRow & { total: string }>[] = await this.dataSource.query(
      `SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM alerts.records WHERE ${where}) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, ${RECORD_COLUMNS} FROM alerts.records WHERE ${where}
            ORDER BY ${NEWEST_FIRST} LIMIT $8 OFFSET $9) paged ON true
        ORDER BY paged.utc_time DESC, paged.id DESC`,
      [
        scope.companyIds,
        filters.from ?? '-infinity',
        filters.to ?? 'infinity',
        filters.vehicleId ?? null,
        filters.alertTypeId ?? null,
        filters.isRead ?? null,
        scope.allow,
        slice.limit,
        slice.offset,
      ],
    );
    const page = pagedRows(rows);
    return { rows: page.rows.map(toRecordView), total: page.total };
  }

  /** V1 GetAlerts: at most `limit` records at or after `from`, newest first. */
  async newestSince(scope: RecordScope, from: Date, limit: number): Promise<AlertRecordView[]> {
    const rows: AlertRecordRow[] = await this.dataSource.query(
      `SELECT ${RECORD_COLUMNS} FROM alerts.records
        WHERE company_id = ANY($1::int[]) AND utc_time >= $2 AND ($3::int[] IS NULL OR vehicle_id = ANY($3))
        ORDER BY ${NEWEST_FIRST} LIMIT $4`,
      [scope.companyIds, from, scope.allow, limit],
    );
    return rows.map(toRecordView);
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
    const rows: AlertRecordRow[] = await this.dataSource.query(
      `WITH changed AS (
         UPDATE alerts.records SET is_read = $2
          WHERE id = $1 AND utc_time >= $3 AND utc_time < $4
            AND company_id = ANY($5::int[]) AND ($6::int[] IS NULL OR vehicle_id = ANY($6))
          RETURNING ${RECORD_COLUMNS})
       SELECT * FROM changed`,
      [id, isRead, day?.from ?? '-infinity', day?.to ?? 'infinity', scope.companyIds, scope.allow],
    );
    if (!rows.length) {
      throw new AlertEngineException(
        AlertEngineExceptionCode.RecordNotFound,
        day
          ? `Alert record ${id} of ${day.from.toISOString().slice(0, 10)} was not found.`
          : `Alert record ${id} was not found.`,
      );
    }
    return toRecordView(rows[0]);
  }

  /** Marks every unread record of the scope read; returns how many changed. */
  async setAllRead(scope: RecordScope): Promise<number> {
    const [{ updated }]: { updated: string }[] = await this.dataSource.query(
      `WITH changed AS (
         UPDATE alerts.records SET is_read = true
          WHERE company_id = ANY($1::int[]) AND NOT is_read AND ($2::int[] IS NULL OR vehicle_id = ANY($2))
          RETURNING 1)
       SELECT count(*) AS updated FROM changed`,
      [scope.companyIds, scope.allow],
    );
    return Number(updated);
  }
}
