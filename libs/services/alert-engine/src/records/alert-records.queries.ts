import { Counted, PagedRow, pagedRows, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';
import { RecordScope } from '../common/alert-access';
import { UtcDay } from '../common/record-day';
import { AlertRecordView } from './alert-record-view';

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

/** A record row as the statements below select it ({@link RECORD_COLUMNS}). */
interface AlertRecordRow {
  id: string;
  utc_time: Date;
  company_id: number;
  configuration_id: number;
  alert_type_id: number;
  vehicle_id: number;
  vehicle_name: string;
  description: string;
  lat: number;
  lng: number;
  address: string | null;
  is_read: boolean;
}

const RECORD_COLUMNS = `id, utc_time, company_id, configuration_id, alert_type_id, vehicle_id, vehicle_name,
  description, lat, lng, address, is_read`;

/** Newest first, and among records of one instant the one written last first. */
const NEWEST_FIRST = 'utc_time DESC, id DESC';

const toRecordView = (row: AlertRecordRow): AlertRecordView => ({
  // bigint: exact as a JSON number up to 2^53 − 1, which a record id will not reach.
  id: Number(row.id),
  utcTime: row.utc_time,
  companyId: row.company_id,
  configurationId: row.configuration_id,
  alertTypeId: row.alert_type_id,
  vehicleId: row.vehicle_id,
  vehicleName: row.vehicle_name,
  description: row.description,
  lat: row.lat,
  lng: row.lng,
  address: row.address,
  isRead: row.is_read,
});

/**
 * SQL of the alert records as the routes read and mark them (`alerts.records`; the engine writes them,
 * engine/alert-evaluator.queries.ts). Every statement is bounded by the scope's companies
 * (`company_id`, the owner of the configuration that fired) and the token's vehicle allowlist, and,
 * where it can be, by time, so that PostgreSQL reads only the monthly partitions concerned. UPDATE ...
 * RETURNING is wrapped in a CTE: TypeORM's query() answers a bare one as [rows, count].
 */
@Injectable()
export class AlertRecordQueries {
  constructor(@InjectDataSource(ALERTS_SCHEMA) private readonly dataSource: DataSource) {}

  /** A page of the scope's records matching `filters`, newest first, and how many match. */
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

  /** At most `limit` of the scope's records at or after `from`, newest first. */
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
   * Sets `is_read` of the scope's record `id` (on `day` when given, else at any time); the record as
   * changed, or undefined when the scope has no such record.
   */
  async setReadStatus(
    scope: RecordScope,
    id: number,
    day: UtcDay | undefined,
    isRead: boolean,
  ): Promise<AlertRecordView | undefined> {
    const rows: AlertRecordRow[] = await this.dataSource.query(
      `WITH changed AS (
         UPDATE alerts.records SET is_read = $2
          WHERE id = $1 AND utc_time >= $3 AND utc_time < $4
            AND company_id = ANY($5::int[]) AND ($6::int[] IS NULL OR vehicle_id = ANY($6))
          RETURNING ${RECORD_COLUMNS})
       SELECT * FROM changed`,
      [id, isRead, day?.from ?? '-infinity', day?.to ?? 'infinity', scope.companyIds, scope.allow],
    );
    return rows.length ? toRecordView(rows[0]) : undefined;
  }

  /** Marks every unread record of the scope read; how many changed. */
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
