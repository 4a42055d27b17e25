/**
 * What bench/capacity reads of PostgreSQL between and after its steps: rows written, what the stored
 * data takes on disk, the vehicles that reported, and the tables it waits on and polls.
 */
import { Pool } from 'pg';

/** Rows inserted, updated and deleted in the database so far (PostgreSQL's statistics). */
export async function rowsWritten(pool: Pool): Promise<number> {
  const { rows } = await pool.query(
    `SELECT tup_inserted + tup_updated + tup_deleted AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  return Number(rows[0].n);
}

/** What the stored data takes on disk: one line per table of the platform's schemas. */
export interface TableSize {
  table: string;
  rows: number;
  /** Heap, TOAST and indexes, over every partition of a partitioned table. */
  bytes: number;
}

/**
 * Rows and bytes of every table in the services' schemas (partitions summed into their parent; a
 * plain table is its own only member, since pg_partition_tree lists nothing for it). Rows
 * are exact for query.positions (what bytes per position divides by), estimates elsewhere.
 */
export async function tableSizes(pool: Pool): Promise<TableSize[]> {
  await pool.query('ANALYZE');
  const { rows } = await pool.query<{ table: string; rows: string; bytes: string }>(
    `SELECT n.nspname || '.' || c.relname AS table,
            sum(greatest(p.reltuples, 0))::bigint AS rows, sum(pg_total_relation_size(p.oid))::bigint AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN LATERAL (SELECT relid FROM pg_partition_tree(c.oid) UNION SELECT c.oid) tree ON true
       JOIN pg_class p ON p.oid = tree.relid AND p.relkind IN ('r', 'm')
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'public')
      GROUP BY 1 ORDER BY 3 DESC`,
  );
  const exact = await pool.query<{ n: string }>('SELECT count(*) AS n FROM query.positions');
  return rows.map((row) => ({
    table: row.table,
    rows: row.table === 'query.positions' ? Number(exact.rows[0].n) : Number(row.rows),
    bytes: Number(row.bytes),
  }));
}

/** Vehicles with a last position: the ones whose state every service now holds. */
export async function vehiclesReported(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM query.last_positions');
  return Number(rows[0].n);
}

/** VACUUM ANALYZE of the whole database. */
export async function vacuumAnalyzeAll(pool: Pool): Promise<void> {
  await pool.query('VACUUM ANALYZE');
}
