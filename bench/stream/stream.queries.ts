/** What bench/stream writes into query-api's tables: a registry of vehicles and a feed of positions. */
import type { Pool } from 'pg';

/** Vehicles with these ids, mapped to `companyId`. */
export async function insertCompanyVehicles(pool: Pool, companyId: number, ids: number[]): Promise<void> {
  await pool.query(
    `INSERT INTO query.vehicles (id, name, imei, vin)
       SELECT id, 'Vehicle ' || id, '35' || lpad(id::text, 13, '0'), NULL FROM unnest($1::int[]) id`,
    [ids],
  );
  await pool.query(
    `INSERT INTO query.vehicle_companies (vehicle_id, company_id) SELECT id, $2 FROM unnest($1::int[]) id`,
    [ids, companyId],
  );
}

/** One chunk of the feed's history, in its own transaction. */
export interface FeedChunk {
  ids: number[];
  /** The chunk's first and last position index of each vehicle. */
  from: number;
  to: number;
  /** The first vehicle id, the positions per vehicle, and the feed's total: no position past it. */
  first: number;
  perVehicle: number;
  total: number;
}

/** Writes one chunk of positions ten seconds apart, as the projection would (with its transaction id). */
export async function insertFeedChunk(pool: Pool, chunk: FeedChunk): Promise<void> {
  await pool.query(
    `INSERT INTO query.positions (vehicle_id, fix_time, event_id, received_at, lat, lng, speed_kmh, course, ignition, readings, accepted_xid)
     SELECT v, now() - make_interval(secs => (s + 1) * 10), gen_random_uuid(), now(), 52.5, 13.4, 40, 90, true,
            '{"satellites": 9, "odometerM": 123456}'::jsonb, pg_current_xact_id()::text::bigint
       FROM unnest($1::int[]) v, generate_series($2::int, $3::int) s
      WHERE (v - $4) * $5 + s < $6`,
    [chunk.ids, chunk.from, chunk.to, chunk.first, chunk.perVehicle, chunk.total],
  );
}

/** ANALYZE of the positions, once the feed is written. */
export async function analyzePositions(pool: Pool): Promise<void> {
  await pool.query('ANALYZE query.positions');
}
