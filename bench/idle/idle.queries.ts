/** What bench/idle reads of PostgreSQL: the sessions the services hold on the run's database. */
import type { Client } from 'pg';

/** The backends connected to the current database, other than this session. */
export async function otherBackendPids(client: Client): Promise<number[]> {
  return (
    await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
  ).rows.map((row) => row.pid);
}
