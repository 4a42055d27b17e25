/**
 * The bare server's way to query-api's own statements: what its queries modules use of a TypeORM
 * DataSource (unnamed queries, and its pool for prepared statements), fed by a plain pg pool. The SQL
 * itself stays in query-api's queries modules.
 */
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** A stand-in DataSource whose queries run on `pool`. */
export function poolDataSource(pool: Pool): DataSource {
  return {
    query: async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows,
    driver: { master: pool },
  } as unknown as DataSource;
}
