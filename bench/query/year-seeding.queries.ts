/**
 * The statements of year-seeding.ts: the year vehicle's registry rows, the history partitions the
 * maintenance would have made, the projection's progress, the heap layout of a fleet, and the rows
 * the projection wrote for the vehicle.
 */
import type { Pool } from 'pg';

/** The vehicle in query-api's registry, in one company, not reported yet. */
export async function insertVehicle(
  pool: Pool,
  vehicle: { vehicleId: number; name: string; imei: string; companyId: number },
): Promise<void> {
  await pool.query(`INSERT INTO query.vehicles (id, name, imei, vin) VALUES ($1, $2, $3, NULL)`, [
    vehicle.vehicleId,
    vehicle.name,
    vehicle.imei,
  ]);
  await pool.query(
    `INSERT INTO query.vehicle_companies (vehicle_id, company_id, reported) VALUES ($1, $2, false)`,
    [vehicle.vehicleId, vehicle.companyId],
  );
}

/** The history partition `name` for [from, to), unless it exists (`name` is the bench's `positions_YYYY_MM`). */
export async function createPositionsPartition(
  pool: Pool,
  name: string,
  from: Date,
  to: Date,
): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS query."${name}" PARTITION OF query.positions
       FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
  );
}

/** The fix time of the vehicle's last position, if it has one. */
export async function lastFixTime(pool: Pool, vehicleId: number): Promise<Date | undefined> {
  const { rows } = await pool.query<{ fix_time: Date }>(
    'SELECT fix_time FROM query.last_positions WHERE vehicle_id = $1',
    [vehicleId],
  );
  return rows[0]?.fix_time;
}

/**
 * In one transaction, moves the vehicle's activity rows to the end of the table, each followed by
 * copies of it for `neighbours` other vehicles (ids after the vehicle's), in quarter order.
 */
export async function interleaveActivity(pool: Pool, vehicleId: number, neighbours: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `CREATE TEMP TABLE year_activity ON COMMIT DROP AS
         SELECT * FROM query.vehicle_activity WHERE vehicle_id = $1`,
      [vehicleId],
    );
    // Deleted rows' space is not reused before a vacuum, so the inserts below go to the table's end.
    await client.query('DELETE FROM query.vehicle_activity WHERE vehicle_id = $1', [vehicleId]);
    await client.query(
      `INSERT INTO query.vehicle_activity
         SELECT CASE WHEN n = 0 THEN vehicle_id ELSE $1 + n END, quarter, distance_m, driving_s, speeding_s, idle_s,
                rest_count, rest_sum_v, rest_last_v, rest_last_at, crank_count, crank_min_v, starts
           FROM year_activity CROSS JOIN generate_series(0, $2::int) n
          ORDER BY quarter, n`,
      [vehicleId, neighbours],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** VACUUM ANALYZE of the insight tables. */
export async function vacuumInsightTables(pool: Pool): Promise<void> {
  await pool.query('VACUUM ANALYZE query.vehicle_activity, query.driving_events, query.trips');
}

/** The vehicle's rows in position history. */
export async function storedPositions(pool: Pool, vehicleId: number): Promise<number> {
  return countOf(pool, 'SELECT count(*) AS n FROM query.positions WHERE vehicle_id = $1', vehicleId);
}

/** The vehicle's insight rows, and the heap pages its activity rows lie on (what a year's score reads besides the index). */
export async function insightRowsOf(
  pool: Pool,
  vehicleId: number,
): Promise<{
  vehicleActivity: number;
  drivingEvents: number;
  trips: number;
  vehicleActivityHeapPages: number;
}> {
  return {
    vehicleActivity: await countOf(
      pool,
      'SELECT count(*) AS n FROM query.vehicle_activity WHERE vehicle_id = $1',
      vehicleId,
    ),
    drivingEvents: await countOf(
      pool,
      'SELECT count(*) AS n FROM query.driving_events WHERE vehicle_id = $1',
      vehicleId,
    ),
    trips: await countOf(pool, 'SELECT count(*) AS n FROM query.trips WHERE vehicle_id = $1', vehicleId),
    vehicleActivityHeapPages: await countOf(
      pool,
      'SELECT count(DISTINCT (ctid::text::point)[0]) AS n FROM query.vehicle_activity WHERE vehicle_id = $1',
      vehicleId,
    ),
  };
}

async function countOf(pool: Pool, sql: string, vehicleId: number): Promise<number> {
  return Number((await pool.query<{ n: string }>(sql, [vehicleId])).rows[0].n);
}
