/**
 * The statements of bench/query's fleets: vehicles with last positions written straight into
 * query-api's tables, and the statistics a production table would have once they are written.
 */
import type { Pool } from 'pg';

/** Vehicles with ids from `first`, mapped to `companyId`, each with a last position somewhere in Europe. */
export async function seedFleet(pool: Pool, companyId: number, first: number, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO query.vehicles (id, name, imei, vin)
       SELECT g, 'Vehicle ' || g, '35' || lpad(g::text, 13, '0'), NULL FROM generate_series($1::int, $2::int) g`,
    [first, first + count - 1],
  );
  await pool.query(
    // `reported`: every seeded vehicle gets a last position below, as the projection would mark it.
    `INSERT INTO query.vehicle_companies (vehicle_id, company_id, reported)
       SELECT g, $3, true FROM generate_series($1::int, $2::int) g`,
    [first, first + count - 1, companyId],
  );
  await pool.query(
    `INSERT INTO query.last_positions
       (vehicle_id, fix_time, event_id, received_at, last_seen_at, lat, lng, speed_kmh, course, ignition, readings, motion,
        anchor_lat, anchor_lng)
     SELECT *, lat, lng FROM (
       SELECT g, now() - interval '1 minute', gen_random_uuid(), now(), now(),
              36 + random() * 20 AS lat, -8 + random() * 36 AS lng, random() * 90, (random() * 359)::int, random() < 0.5,
              '{"satellites": 9, "odometerM": 123456}'::jsonb, '{}'::jsonb
         FROM generate_series($1::int, $2::int) g) seeded`,
    [first, first + count - 1],
  );
}

/** What autovacuum would have done by now to the seeded tables. */
export async function analyzeSeededTables(pool: Pool): Promise<void> {
  await pool.query('ANALYZE query.vehicles; ANALYZE query.last_positions');
  // Mappings are written rarely (a new mapping, a first report), so autovacuum keeps their visibility
  // map set in production; here it is done at once. The company pages are index-only scans of them.
  await pool.query('VACUUM ANALYZE query.vehicle_companies');
  // So do the insight tables, which only grow at their end.
  await pool.query('VACUUM ANALYZE query.vehicle_activity, query.driving_events, query.trips');
}
