/** What bench/capacity's probes poll: the last fixes of awaited vehicles and the new overspeed records. */
import type { Pool } from 'pg';

/** A vehicle's last fix time, in epoch seconds. */
export interface LastFixRow {
  vehicle_id: number;
  t: string;
}

/** An overspeed record: its fix time in epoch seconds, its creation in epoch milliseconds. */
export interface RecordTimesRow {
  id: string;
  vehicle_id: number;
  t: string;
  created_ms: string;
}

/** The last fix time of each of these vehicles that has one. */
export async function lastFixesOf(pool: Pool, vehicleIds: number[]): Promise<LastFixRow[]> {
  const { rows } = await pool.query<LastFixRow>(
    `SELECT vehicle_id, extract(epoch FROM fix_time)::bigint AS t FROM query.last_positions WHERE vehicle_id = ANY($1)`,
    [vehicleIds],
  );
  return rows;
}

/** Up to 10,000 overspeed records after `lastId`, in id order. */
export async function overspeedRecordsAfter(pool: Pool, lastId: number): Promise<RecordTimesRow[]> {
  const { rows } = await pool.query<RecordTimesRow>(
    `SELECT id, vehicle_id, extract(epoch FROM utc_time)::bigint AS t,
            (extract(epoch FROM created_at) * 1000)::bigint AS created_ms
       FROM alerts.records WHERE id > $1 AND alert_type_id = 10 ORDER BY id LIMIT 10000`,
    [lastId],
  );
  return rows;
}
