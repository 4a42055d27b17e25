import { VehicleSnapshotV1 } from '@fleet/contracts';
import { applySnapshotRows, SnapshotTable } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';
import { AlertVehicleQueries } from './alert-vehicles.queries';

/** alert-engine's projection of the vehicle registry: what coverage and records need of a vehicle. */
const alertVehicles: SnapshotTable<VehicleSnapshotV1> = {
  table: 'alerts.vehicles',
  key: 'vehicle_id',
  rowOf: (snapshot) => ({
    vehicle_id: snapshot.vehicleId,
    name: snapshot.name,
    company_ids: snapshot.companyIds,
    // Snapshots published before tags existed carry none.
    tags: snapshot.tags ?? [],
    version: snapshot.version,
  }),
  isDeleted: (snapshot) => snapshot.deleted,
};

/** A vehicle as the engine sees it: its name for records, its companies and tags for coverage. */
export interface KnownVehicle {
  vehicleId: number;
  name: string;
  companyIds: number[];
  tags: string[];
}

@Injectable()
export class AlertVehicles {
  constructor(
    @InjectDataSource(ALERTS_SCHEMA) private readonly dataSource: DataSource,
    private readonly queries: AlertVehicleQueries,
  ) {}

  /** Applies snapshots in order; an older snapshot than the stored row changes nothing (redelivery). */
  async apply(snapshots: readonly VehicleSnapshotV1[]): Promise<void> {
    await this.dataSource.transaction((manager) => applySnapshotRows(manager, alertVehicles, snapshots));
  }

  /** The projection's rows of `vehicleIds`, inside the caller's transaction; unknown ids are absent. */
  async of(manager: EntityManager, vehicleIds: readonly number[]): Promise<Map<number, KnownVehicle>> {
    const rows = await this.queries.rowsOf(manager, vehicleIds);
    return new Map(
      rows.map((row) => [
        row.vehicle_id,
        { vehicleId: row.vehicle_id, name: row.name, companyIds: row.company_ids, tags: row.tags },
      ]),
    );
  }

  /** Which of `vehicleIds` the projection holds: code that just registered vehicles waits for them. */
  async known(vehicleIds: readonly number[]): Promise<number[]> {
    return this.queries.known(vehicleIds);
  }
}
