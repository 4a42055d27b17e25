import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VehicleIdentity } from '../position-records/position-view';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { Counted, PagedRow, pagedRows, Slice } from './paging';

/** A vehicle as the vehicle routes show it: with the token's companies it is mapped to. */
export type VisibleVehicle = VehicleIdentity & { companyIds: number[] };

/**
 * The SQL of vehicle visibility: a vehicle is visible when it is mapped to any of the token's
 * companies and, if the token has an allowlist (`allow`, null for none), on it.
 */
@Injectable()
export class VisibleVehicles {
  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {}

  /** The vehicle if the token may see it: mapped to one of `companyIds` and on the allowlist. */
  async one(
    vehicleId: number,
    companyIds: number[],
    allow: number[] | null,
  ): Promise<VehicleIdentity | undefined> {
    const { rows } = await this.find({ vehicleId }, companyIds, allow, { limit: 1, offset: 0 });
    return rows[0];
  }

  /** Vehicles the token may see, optionally narrowed to one id, IMEI or VIN; by id. */
  async find(
    by: { vehicleId?: number; imei?: string; vin?: string },
    companyIds: number[],
    allow: number[] | null,
    slice: Slice,
  ): Promise<Counted<VisibleVehicle>> {
    const rows: PagedRow<{
      id: number;
      name: string;
      imei: string;
      vin: string | null;
      company_ids: number[];
      total: string;
    }>[] = await this.dataSource.query(
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
    const page = pagedRows(rows);
    return {
      rows: page.rows.map((row) => ({
        id: row.id,
        name: row.name,
        imei: row.imei,
        vin: row.vin,
        // Only the token's own companies: a mapping to a company outside its reach is not its business.
        companyIds: row.company_ids.filter((companyId) => companyIds.includes(companyId)),
      })),
      total: page.total,
    };
  }
}
