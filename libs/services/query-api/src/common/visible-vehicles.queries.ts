import { DataSource } from 'typeorm';
import { Counted, PagedRow, pagedRows, Slice } from './paging';

/** A visible vehicle as stored, with every company it is mapped to. */
export interface VisibleVehicleRow {
  id: number;
  name: string;
  imei: string;
  vin: string | null;
  company_ids: number[];
}

/** Which vehicles to look for; an absent key does not narrow. */
export interface VehicleFilter {
  vehicleId?: number;
  imei?: string;
  vin?: string;
}

/**
 * The SQL of vehicle visibility: a vehicle is visible when it is mapped to any of the token's
 * companies and, if the token has an allowlist (`allow`, null for none), on it.
 */
export class VisibleVehicleQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of the vehicles mapped to any of `companyIds` (and on `allow`), matching `by`, by id. */
  async find(
    by: VehicleFilter,
    companyIds: number[],
    allow: number[] | null,
    slice: Slice,
  ): Promise<Counted<VisibleVehicleRow>> {
    const rows: PagedRow<VisibleVehicleRow & { total: string }>[] = await this.dataSource.query(
      `WITH visible AS (
         SELECT v.id, v.name, v.imei, v.vin, array_agg(vc.company_id ORDER BY vc.company_id) AS company_ids
           FROM query.vehicles v JOIN query.vehicle_companies vc ON vc.vehicle_id = v.id
          WHERE ($1::int IS NULL OR v.id = $1) AND ($2::text IS NULL OR v.imei = $2) AND ($3::text IS NULL OR v.vin = $3)
            AND ($5::int[] IS NULL OR v.id = ANY($5))
          GROUP BY v.id
         HAVING bool_or(vc.company_id = ANY($4::int[])))
       SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM visible) counted
         LEFT JOIN LATERAL (SELECT true AS in_page, * FROM visible ORDER BY id LIMIT $6 OFFSET $7) paged ON true
        ORDER BY paged.id`,
      [by.vehicleId ?? null, by.imei ?? null, by.vin ?? null, companyIds, allow, slice.limit, slice.offset],
    );
    return pagedRows(rows);
  }
}
