import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';

/** Set by the Jest global setup: a URL with the right to create databases. */
export const ADMIN_URL_ENV = 'TEST_PG_ADMIN_URL';
/** Set by the Jest global setup: names this run's databases so its teardown drops only them. */
export const RUN_ID_ENV = 'TEST_RUN_ID';
export const TEST_DATABASE_PREFIX = 'fleet_test_';

export function adminDatabaseUrl(): string {
  const url = process.env[ADMIN_URL_ENV];
  if (!url)
    throw new Error(`${ADMIN_URL_ENV} is not set: run integration tests through jest.integration.config.ts`);
  return url;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase {
  name: string;
  url: string;
  /** A small pool for the test's own assertions. */
  pool: Pool;
  drop(): Promise<void>;
}

/** A new, empty database for one test file, so that test files never share state. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = adminDatabaseUrl();
  const name = `${TEST_DATABASE_PREFIX}${process.env[RUN_ID_ENV] ?? 'adhoc'}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const pool = new Pool({ connectionString: url, max: 3 });
  let dropping = false;
  // pool.end() resolves before its connections have closed, so the forced drop below can still reach
  // one of them: that error is expected then. Any other idle-connection error stays an error.
  pool.on('error', (error) => {
    if (!dropping) throw error;
  });
  return {
    name,
    url,
    pool,
    drop: async () => {
      dropping = true;
      await pool.end();
      await dropDatabases(adminUrl, [name]);
    },
  };
}

/** Drops databases even while a killed service still holds connections to them. */
export async function dropDatabases(adminUrl: string, names: readonly string[]): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const name of names) {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
