/** The statements of bench/common/infra.ts: a run's database, created and dropped on the admin connection. */
import type { Client } from 'pg';

/** Creates the run's database (`name` is the bench's own, `fleet_bench_<hex>`). */
export async function createDatabase(admin: Client, name: string): Promise<void> {
  await admin.query(`CREATE DATABASE "${name}"`);
}

/** Drops the run's database, ending the sessions still on it. */
export async function dropDatabase(admin: Client, name: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
