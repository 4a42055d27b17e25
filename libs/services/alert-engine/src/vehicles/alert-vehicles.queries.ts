import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';

/** A vehicle of alert-engine's projection of the registry (`alerts.vehicles`). */
export interface AlertVehicleRow {
  vehicle_id: number;
  name: string;
  company_ids: number[];
  tags: string[];
}

/**
 * SQL that reads alert-engine's projection of the vehicle registry (`alerts.vehicles`); the
 * projection is written by the platform's applySnapshotRows (alert-vehicles.ts).
 */
@Injectable()
export class AlertVehicleQueries {
  constructor(@InjectDataSource(ALERTS_SCHEMA) private readonly dataSource: DataSource) {}

  /** The rows of `vehicleIds`, read in the caller's transaction; unknown ids have none. */
  async rowsOf(manager: EntityManager, vehicleIds: readonly number[]): Promise<AlertVehicleRow[]> {
    return manager.query(
      'SELECT vehicle_id, name, company_ids, tags FROM alerts.vehicles WHERE vehicle_id = ANY($1::int[])',
      [vehicleIds],
    );
  }

  /** Which of `vehicleIds` have a row. */
  async known(vehicleIds: readonly number[]): Promise<number[]> {
    const rows: { vehicle_id: number }[] = await this.dataSource.query(
      'SELECT vehicle_id FROM alerts.vehicles WHERE vehicle_id = ANY($1::int[])',
      [vehicleIds],
    );
    return rows.map((row) => row.vehicle_id);
  }
}
