/**
 * Statements about the database itself rather than a feature's tables: advisory locks, whether a
 * relation exists, schemas, the migrations a schema has applied, LISTEN, and the liveness ping. The
 * platform's mechanisms (migrations, partitions, the outbox relay, readiness) share them.
 */

/** Anything that runs a statement: a DataSource, an EntityManager, a QueryRunner or a pg client. */
export interface Queryable {
  query(text: string, parameters?: unknown[]): Promise<unknown>;
}

/** Waits for the session-level advisory lock named `key` (held until unlocked or disconnected). */
export async function advisoryLock(db: Queryable, key: string): Promise<void> {
  await db.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
}

/** Releases a session-level advisory lock taken by {@link advisoryLock}. */
export async function advisoryUnlock(db: Queryable, key: string): Promise<void> {
  await db.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
}

/** Takes the transaction-level advisory lock named `key` if free; false if another transaction holds it. */
export async function tryAdvisoryTransactionLock(db: Queryable, key: string): Promise<boolean> {
  const [{ locked }] = (await db.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [
    key,
  ])) as {
    locked: boolean;
  }[];
  return locked;
}

/** Whether the (quoted, qualified) relation exists. */
export async function relationExists(db: Queryable, qualifiedName: string): Promise<boolean> {
  const [{ exists }] = (await db.query('SELECT to_regclass($1) IS NOT NULL AS exists', [qualifiedName])) as {
    exists: boolean;
  }[];
  return exists;
}

/** Creates `schema` unless it exists (the name is checked by the caller: it is not a parameter). */
export async function createSchema(db: Queryable, schema: string): Promise<void> {
  await db.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
}

/** The names in `schema`'s TypeORM migrations table (which must exist). */
export async function appliedMigrationNames(db: Queryable, schema: string): Promise<string[]> {
  const rows = (await db.query(`SELECT name FROM "${schema}".migrations`)) as { name: string }[];
  return rows.map((row) => row.name);
}

/** Starts listening on a notification channel (a plain identifier, checked by the caller). */
export async function listen(db: Queryable, channel: string): Promise<void> {
  await db.query(`LISTEN ${channel}`);
}

/** The cheapest round trip: proves the connection answers. */
export async function ping(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
