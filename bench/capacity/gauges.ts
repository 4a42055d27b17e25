/**
 * What bench/capacity reads of the running stack between and after its steps: consumer lag per group
 * (from the broker), rows PostgreSQL wrote and bytes Kafka appended.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Admin, Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';

/** Messages each live consumer group has yet to commit, summed over its topics' partitions. */
export async function consumerLags(admin: Admin): Promise<Record<string, number>> {
  // Groups with members only: a process's own group (company-directory.<id>) outlives it, empty.
  const listed = (await admin.listGroups()).groups.map((group) => group.groupId);
  const groups = (await admin.describeGroups(listed)).groups.filter(
    (group) => group.state !== 'Empty' && group.state !== 'Dead',
  );
  const lags: Record<string, number> = {};
  const ends = new Map<string, Map<number, number>>();
  const endOf = async (topic: string) => {
    let partitions = ends.get(topic);
    if (!partitions) {
      partitions = new Map(
        (await admin.fetchTopicOffsets(topic)).map((entry) => [entry.partition, Number(entry.high)]),
      );
      ends.set(topic, partitions);
    }
    return partitions;
  };
  for (const { groupId } of groups) {
    let lag = 0;
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId })) {
      const end = await endOf(topic);
      for (const { partition, offset } of partitions) {
        const committed = Number(offset);
        // -1: nothing committed yet, so the whole partition is behind.
        lag += Math.max(0, (end.get(partition) ?? 0) - Math.max(0, committed));
      }
    }
    lags[groupId] = lag;
  }
  return lags;
}

export function kafkaAdmin(brokers: string): Admin {
  return new Kafka({
    clientId: 'bench-capacity',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
}

/** Rows inserted, updated and deleted in the database so far (PostgreSQL's statistics). */
export async function rowsWritten(pool: Pool): Promise<number> {
  const { rows } = await pool.query(
    `SELECT tup_inserted + tup_updated + tup_deleted AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  return Number(rows[0].n);
}

/**
 * Bytes of the broker's log segments (`*.log` files under its storage directory), or only of the
 * partitions of topics whose name contains `topic`.
 */
export function kafkaLogBytes(storageDir: string, topic?: string): number {
  let total = 0;
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      try {
        const stat = statSync(path);
        if (stat.isDirectory()) walk(path);
        else if (entry.endsWith('.log') && (!topic || dir.includes(topic))) total += stat.size;
      } catch {
        // A segment deleted while walking.
      }
    }
  };
  walk(storageDir);
  return total;
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
