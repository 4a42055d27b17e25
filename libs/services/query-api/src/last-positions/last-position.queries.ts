import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Counted, PagedRow, Slice } from '../common/paging';
import {
  counted,
  LAST_POSITION_COLUMNS,
  PositionRow,
  StoredPosition,
  toStored,
} from '../position-records/stored-position';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/**
 * The SQL of the last-position routes, apart from access checks and records so that bench/query's
 * bare server runs exactly these statements. The token's allowlist is `allow` (null for none).
 */
@Injectable()
export class LastPositionQueries {
  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {}

  /**
   * Runs `text` as the named prepared statement `name` on the data source's pool: PostgreSQL parses it
   * once per connection and, after five runs, plans it once too. Only for statements whose best plan
   * does not depend on the values: a generic plan is used for all of them. Planning was a large share
   * of PostgreSQL's time for a page of last positions (docs/performance.md).
   */
  private async prepared<R>(name: string, text: string, values: unknown[]): Promise<R[]> {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    return (await pool.query({ name, text, values })).rows as R[];
  }

  /** Last positions of the vehicles mapped to `companyId`, by vehicle id. Vehicles that never reported are absent. */
  async companyLastPositions(
    companyId: number,
    allow: number[] | null,
    slice: Slice,
  ): Promise<Counted<StoredPosition>> {
    // Both the total and the page are index-only scans of the company's reported mappings
    // (vehicle_companies_reported_idx, in vehicle id order); only the page's rows are joined. The
    // filter is written out twice rather than as a CTE: a CTE read twice is materialized, and the
    // page was then sorted from it, which measured slower (docs/performance.md).
    const reporting = `FROM query.vehicle_companies vc
          WHERE vc.company_id = $1 AND vc.reported AND ($2::int[] IS NULL OR vc.vehicle_id = ANY($2))`;
    const text = `SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total ${reporting}) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, ${LAST_POSITION_COLUMNS}
             FROM (SELECT vc.vehicle_id ${reporting} ORDER BY vc.vehicle_id LIMIT $3 OFFSET $4) page
             JOIN query.vehicles v ON v.id = page.vehicle_id
             JOIN query.last_positions lp ON lp.vehicle_id = page.vehicle_id) paged ON true
        ORDER BY paged.vehicle_id`;
    const values = [companyId, allow, slice.limit, slice.offset];
    // Without an allowlist the plan is the same for every company and page, so it is prepared. With
    // one, a few allowed vehicles of a large company are better found by id: planned for the values.
    const rows: PagedRow<PositionRow>[] =
      allow === null
        ? await this.prepared('query-api.company-last-positions', text, values)
        : await this.dataSource.query(text, values);
    return counted(rows);
  }

  async lastPosition(vehicleId: number): Promise<StoredPosition | undefined> {
    const rows: PositionRow[] = await this.dataSource.query(
      `SELECT ${LAST_POSITION_COLUMNS}, 1 AS total
         FROM query.last_positions lp JOIN query.vehicles v ON v.id = lp.vehicle_id WHERE lp.vehicle_id = $1`,
      [vehicleId],
    );
    return rows.length ? toStored(rows[0]) : undefined;
  }
}
