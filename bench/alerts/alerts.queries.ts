/**
 * What bench/alerts writes and reads of alert-engine's tables: the rules it defines in the admin's
 * way (geofences and configurations in the caller's transaction), and the records it times.
 */
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';

/** A geofence to insert: its name and GeoJSON shape. */
export interface NewGeofence {
  name: string;
  shape: unknown;
}

/** A configuration to insert, as alert-engine stores it. */
export interface NewConfiguration {
  name: string;
  alertTypeId: number;
  vehicleIds: number[];
  tags: string[];
  settings: unknown;
}

/** An overspeed record: its id, vehicle and fix time. */
export interface OverspeedRecordRow {
  id: string;
  vehicle_id: number;
  utc_time: Date;
}

/** Inserts a company's geofences in the caller's transaction; their ids, in order. */
export async function insertGeofences(
  manager: EntityManager,
  companyId: number,
  shapes: NewGeofence[],
): Promise<number[]> {
  return (
    await manager.query(
      `INSERT INTO alerts.geofences (company_id, name, shape)
       SELECT $1, name, shape FROM unnest($2::text[], $3::jsonb[]) AS g(name, shape) RETURNING id`,
      [companyId, shapes.map((g) => g.name), shapes.map((g) => JSON.stringify(g.shape))],
    )
  ).map((row: { id: number }) => row.id);
}

/** Inserts a company's configurations in the caller's transaction. */
export async function insertConfigurations(
  manager: EntityManager,
  companyId: number,
  defined: NewConfiguration[],
): Promise<void> {
  await manager.query(
    `INSERT INTO alerts.configurations (company_id, name, alert_type_id, vehicle_ids, tags, settings)
     SELECT $1, c.name, c.type, ARRAY(SELECT jsonb_array_elements_text(c.vehicles)::int),
            ARRAY(SELECT jsonb_array_elements_text(c.tags)), c.settings
       FROM jsonb_to_recordset($2::jsonb) AS c(name text, type smallint, vehicles jsonb, tags jsonb, settings jsonb)`,
    [
      companyId,
      JSON.stringify(
        defined.map((c) => ({
          name: c.name,
          type: c.alertTypeId,
          vehicles: c.vehicleIds,
          tags: c.tags,
          settings: c.settings,
        })),
      ),
    ],
  );
}

/** The highest record id so far (0 without records). */
export async function lastRecordId(pool: Pool): Promise<number> {
  return Number((await pool.query('SELECT coalesce(max(id), 0) AS id FROM alerts.records')).rows[0].id);
}

/** The overspeed records after `lastId`, in id order. */
export async function overspeedRecordsAfter(pool: Pool, lastId: number): Promise<OverspeedRecordRow[]> {
  return (
    await pool.query<OverspeedRecordRow>(
      'SELECT id, vehicle_id, utc_time FROM alerts.records WHERE id > $1 AND alert_type_id = 10 ORDER BY id',
      [lastId],
    )
  ).rows;
}

/** The number of records of each alert type. */
export async function recordsByType(pool: Pool): Promise<{ type: number; n: string }[]> {
  return (
    await pool.query<{ type: number; n: string }>(
      'SELECT alert_type_id AS type, count(*) AS n FROM alerts.records GROUP BY 1 ORDER BY 1',
    )
  ).rows;
}
