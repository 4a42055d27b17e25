import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VehicleIdentity } from '../position-records/position-view';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { Counted, Slice } from './paging';
import { VehicleFilter, VisibleVehicleQueries } from './visible-vehicles.queries';

/** A vehicle as the vehicle routes show it: with the token's companies it is mapped to. */
export type VisibleVehicle = VehicleIdentity & { companyIds: number[] };

/**
 * Vehicle visibility: a vehicle is visible when it is mapped to any of the token's companies and, if
 * the token has an allowlist (`allow`, null for none), on it (the SQL: VisibleVehicleQueries).
 */
@Injectable()
export class VisibleVehicles {
  private readonly queries: VisibleVehicleQueries;

  constructor(@InjectDataSource(QUERY_SCHEMA) dataSource: DataSource) {
    this.queries = new VisibleVehicleQueries(dataSource);
  }

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
    by: VehicleFilter,
    companyIds: number[],
    allow: number[] | null,
    slice: Slice,
  ): Promise<Counted<VisibleVehicle>> {
    const page = await this.queries.find(by, companyIds, allow, slice);
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
