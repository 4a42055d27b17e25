import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { ADMIN_URL_ENV, dropDatabases, RUN_ID_ENV, TEST_DATABASE_PREFIX } from '../postgres';
import { repoRoot } from '../repo-root';
import { STARTED_KAFKA, TEST_KAFKA_ENV } from './global-setup';
import { STARTED_REDIS, stopTestRedis } from './redis';

/** Drops this run's databases (even those of a failed test file) and stops what the setup started. */
export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env[ADMIN_URL_ENV];
  if (adminUrl) {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${TEST_DATABASE_PREFIX}${process.env[RUN_ID_ENV]}_%`],
    );
    await client.end();
    await dropDatabases(
      adminUrl,
      rows.map((row) => row.datname),
    );
  }
  if (process.env[STARTED_KAFKA]) {
    // `reset` stops the broker and wipes its data: every run starts from an empty cluster.
    spawnSync('bash', [join(repoRoot, 'scripts/kafka.sh'), 'reset'], {
      env: { ...process.env, ...TEST_KAFKA_ENV },
      stdio: 'inherit',
    });
  }
  if (process.env[STARTED_REDIS]) stopTestRedis();
  const postgres = (globalThis as { __fleetTestPostgres?: { stop(): Promise<void> } }).__fleetTestPostgres;
  await postgres?.stop();
}
