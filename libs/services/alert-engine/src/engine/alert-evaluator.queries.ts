import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { VehicleMemory } from './evaluation';

/**
 * A vehicle's stored rule state: its newest evaluated fix (its place in the vehicle's order,
 * `fixOrderMs`: the fix time, or the arrival of a fix reported ahead of it) and the rules' memory.
 */
export interface StateRow {
  vehicle_id: number;
  newest_fix: Date;
  state: VehicleMemory;
}

/** A vehicle whose newest evaluated fix moved: its new state row. */
export interface StateUpdate {
  vehicleId: number;
  newestFix: Date;
  memory: VehicleMemory;
}

/** An alert record to write: a configuration fired for a vehicle at a fix. */
export interface NewRecord {
  utcTime: Date;
  companyId: number;
  configurationId: number;
  alertTypeId: number;
  vehicleId: number;
  vehicleName: string;
  description: string;
  lat: number;
  lng: number;
  course: number;
  address: string | null;
  /** JSON text of the structured address, or null. */
  addressParts: string | null;
  /** JSON text of the firing's data, or null. */
  data: string | null;
}

/** A record the insert wrote (not one already there), by what identifies it. */
export interface InsertedRecord {
  id: string;
  configuration_id: number;
  vehicle_id: number;
  utc_time: Date;
}

/**
 * SQL of the evaluation (AlertEvaluator): the vehicles' rule state (`alerts.vehicle_states`) and the
 * records it writes (`alerts.records`). Every statement runs in the evaluation's transaction, so it
 * takes its `manager`; each is one statement whatever the batch's size.
 */
@Injectable()
export class AlertEvaluatorQueries {
  /**
   * The stored state of `vehicleIds`, each row locked until the transaction ends. Ordered, so that two
   * transactions over overlapping vehicles (replicas during a rebalance) lock in the same order and
   * cannot deadlock.
   */
  async lockStates(manager: EntityManager, vehicleIds: readonly number[]): Promise<StateRow[]> {
    return manager.query(
      `SELECT vehicle_id, newest_fix, state FROM alerts.vehicle_states
          WHERE vehicle_id = ANY($1::int[]) ORDER BY vehicle_id FOR UPDATE`,
      [vehicleIds],
    );
  }

  /**
   * Inserts the records in one statement; a record already there (same configuration, vehicle and fix
   * time) is skipped. The records inserted.
   */
  async insertRecords(manager: EntityManager, records: readonly NewRecord[]): Promise<InsertedRecord[]> {
    return manager.query(
      `INSERT INTO alerts.records
         (utc_time, company_id, configuration_id, alert_type_id, vehicle_id, vehicle_name, description,
          lat, lng, course, address, address_parts, data)
       SELECT * FROM unnest($1::timestamptz[], $2::int[], $3::int[], $4::smallint[], $5::int[], $6::text[],
                            $7::text[], $8::float8[], $9::float8[], $10::smallint[], $11::text[], $12::jsonb[],
                            $13::jsonb[])
       ON CONFLICT (configuration_id, vehicle_id, utc_time) DO NOTHING
       RETURNING id, configuration_id, vehicle_id, utc_time`,
      [
        records.map((record) => record.utcTime),
        records.map((record) => record.companyId),
        records.map((record) => record.configurationId),
        records.map((record) => record.alertTypeId),
        records.map((record) => record.vehicleId),
        records.map((record) => record.vehicleName),
        records.map((record) => record.description),
        records.map((record) => record.lat),
        records.map((record) => record.lng),
        records.map((record) => record.course),
        records.map((record) => record.address),
        records.map((record) => record.addressParts),
        records.map((record) => record.data),
      ],
    );
  }

  /** Writes the states in one statement; never moves a state back (a concurrent replica's newer one stays). */
  async writeStates(manager: EntityManager, updates: readonly StateUpdate[]): Promise<void> {
    await manager.query(
      `INSERT INTO alerts.vehicle_states (vehicle_id, newest_fix, state)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::jsonb[])
       ON CONFLICT (vehicle_id) DO UPDATE SET newest_fix = EXCLUDED.newest_fix, state = EXCLUDED.state
       WHERE vehicle_states.newest_fix < EXCLUDED.newest_fix`,
      [
        updates.map((update) => update.vehicleId),
        updates.map((update) => update.newestFix),
        updates.map((update) => JSON.stringify(update.memory)),
      ],
    );
  }
}
