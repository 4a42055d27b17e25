/** What bench/ingest reads of query-api's tables while it measures. */
import type { Pool } from 'pg';

/** Every vehicle's last fix time, in epoch seconds. */
export async function lastFixTimes(pool: Pool): Promise<{ vehicle_id: number; t: number }[]> {
  return (
    await pool.query<{ vehicle_id: number; t: number }>(
      'SELECT vehicle_id, extract(epoch FROM fix_time)::bigint AS t FROM query.last_positions',
    )
  ).rows;
}

/** Updates of query.last_positions so far, how many of them were HOT, and the table's size. */
export async function lastPositionUpdates(
  pool: Pool,
): Promise<{ updates: string; hot: string; bytes: string }> {
  return (
    await pool.query<{ updates: string; hot: string; bytes: string }>(
      `SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot, pg_relation_size(relid) AS bytes
         FROM pg_stat_user_tables WHERE schemaname = 'query' AND relname = 'last_positions'`,
    )
  ).rows[0];
}
