/** What bench/trackers reads back of command-gateway's table. */
import type { Pool } from 'pg';

/** How many of these commands are in each status. */
export async function statusCountsOf(pool: Pool, ids: string[]): Promise<{ status: string; n: string }[]> {
  return (
    await pool.query<{ status: string; n: string }>(
      'SELECT status, count(*) AS n FROM commands.commands WHERE id = ANY($1::uuid[]) GROUP BY status',
      [ids],
    )
  ).rows;
}
