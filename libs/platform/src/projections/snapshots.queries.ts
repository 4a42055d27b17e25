import { EntityManager } from 'typeorm';

/**
 * The two statements of a snapshot table (snapshots.ts): `table` and `key` come from the projection's
 * own description, never from an event; values are parameters.
 */
export const snapshotQueries = {
  /** Deletes the row of `keyValue` unless it is newer than `version`. */
  async deleteUnlessNewer(
    manager: EntityManager,
    table: string,
    key: string,
    keyValue: unknown,
    version: number,
  ) {
    await manager.query(`DELETE FROM ${table} WHERE ${key} = $1 AND version <= $2`, [keyValue, version]);
  },

  /** Inserts `row`, or replaces the held row of its key if that one is older (`version`). */
  async upsertIfNewer(manager: EntityManager, table: string, key: string, row: Record<string, unknown>) {
    const columns = Object.keys(row);
    const updates = columns.filter((column) => column !== key);
    await manager.query(
      `INSERT INTO ${table} AS held (${columns.join(', ')})
       VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})
       ON CONFLICT (${key}) DO UPDATE SET ${updates.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}
       WHERE held.version < EXCLUDED.version`,
      columns.map((column) => row[column]),
    );
  },
};
