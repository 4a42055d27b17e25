import { EntityManager } from 'typeorm';

/**
 * The catalog statements of time partitioning (monthly-partitions.ts): creating, listing and dropping
 * the partitions of a table, and pruning its default partition. Names are quoted identifiers built by
 * the caller from its table description, never from input.
 */
export const partitionQueries = {
  /** Creates partition `name` of `parent` (qualified) for times in [start, end). */
  async create(manager: EntityManager, schema: string, name: string, parent: string, start: Date, end: Date) {
    await manager.query(
      `CREATE TABLE "${schema}"."${name}" PARTITION OF ${parent}
         FOR VALUES FROM ('${start.toISOString()}') TO ('${end.toISOString()}')`,
    );
  },

  /** The partitions of `parent` (qualified) with their bounds as PostgreSQL prints them. */
  async list(manager: EntityManager, parent: string): Promise<{ name: string; bound: string }[]> {
    return manager.query(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = $1::regclass`,
      [parent],
    );
  },

  /** Drops a whole partition. */
  async drop(manager: EntityManager, schema: string, name: string) {
    await manager.query(`DROP TABLE "${schema}"."${name}"`);
  },

  /** Deletes the default partition's rows older than `cutoff` (retention row by row). */
  async pruneDefault(
    manager: EntityManager,
    schema: string,
    table: string,
    timeColumn: string,
    cutoff: Date,
  ) {
    await manager.query(`DELETE FROM "${schema}"."${table}_default" WHERE "${timeColumn}" < $1`, [cutoff]);
  },
};
