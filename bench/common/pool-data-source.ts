/**
 * A bare server's way to a service's own statements: what its queries modules use of a TypeORM
 * DataSource (unnamed queries, and its pool for prepared statements) and of an EntityManager in a
 * transaction, fed by a plain pg pool and client. The SQL itself stays in the service's queries modules.
 */
import type { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/** A stand-in DataSource whose queries run on `pool`. */
export function poolDataSource(pool: Pool): DataSource {
  return {
    query: async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows,
    driver: { master: pool },
  } as unknown as DataSource;
}

/** A stand-in EntityManager whose queries run on `client` (in the transaction the caller opened on it). */
export function clientManager(client: PoolClient): EntityManager {
  return {
    query: async (sql: string, params: unknown[]) => (await client.query(sql, params)).rows,
  } as unknown as EntityManager;
}
