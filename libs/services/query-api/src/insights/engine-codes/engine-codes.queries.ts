import { DataSource } from 'typeorm';
import { Counted, PagedRow, pagedRows, Slice } from '../../common/paging';

/** A vehicle's engine code as stored, and whether its last position still lists it as active. */
export interface EngineCodeRow {
  code: string;
  first_seen: Date;
  last_seen: Date;
  is_active: boolean;
}

/** The SQL of the engine codes route: `query.vehicle_engine_codes` (written by the insight projection). */
export class EngineCodeQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of a vehicle's trouble codes, active first, then most recently seen, then by code. */
  async ofVehicle(vehicleId: number, slice: Slice): Promise<Counted<EngineCodeRow>> {
    const rows: PagedRow<EngineCodeRow & { total: string }>[] = await this.dataSource.query(
      // The shape check repeats the projection's: a row that is not a trouble code cannot be explained,
      // and leaving it out of the count too keeps the pages consistent.
      `WITH codes AS (
         SELECT ec.code, ec.first_seen, ec.last_seen,
                COALESCE((lp.insight_state->'activeCodes') ? ec.code, false) AS is_active
           FROM query.vehicle_engine_codes ec
           LEFT JOIN query.last_positions lp ON lp.vehicle_id = ec.vehicle_id
          WHERE ec.vehicle_id = $1 AND ec.code ~ '^[PCBU][0-3][0-9A-F]{3}$')
       SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM codes) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, * FROM codes ORDER BY is_active DESC, last_seen DESC, code
            LIMIT $2 OFFSET $3) paged ON true
        ORDER BY paged.is_active DESC, paged.last_seen DESC, paged.code`,
      [vehicleId, slice.limit, slice.offset],
    );
    return pagedRows(rows);
  }
}
