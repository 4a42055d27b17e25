import { DataSource, EntityManager } from 'typeorm';
import { tryAdvisoryTransactionLock } from '../catalog.queries';
import { OutboxRow } from './outbox.schema';

/** Rows to enqueue, column by column (one array element per event). */
export interface OutboxInsert {
  topic: string;
  keys: string[];
  /** Encoded events (JSON text). */
  payloads: string[];
  headers: string[];
  /** The NOTIFY channel told at commit. */
  channel: string;
}

/** All SQL of one schema's `outbox` table (outbox.ts is the relay that uses it). */
export class OutboxQueries {
  private readonly table: string;

  constructor(private readonly schema: string) {
    this.table = `"${schema}".outbox`;
  }

  /**
   * Inserts the rows in the caller's transaction and notifies `channel`, which PostgreSQL delivers
   * when (and only if) the transaction commits.
   */
  async insert(manager: EntityManager, rows: OutboxInsert): Promise<void> {
    await manager.query(
      `WITH inserted AS (
         INSERT INTO ${this.table} (topic, key, payload, headers)
         SELECT $1, key, payload, headers FROM unnest($2::text[], $3::jsonb[], $4::jsonb[]) AS e(key, payload, headers)
         RETURNING 1)
       SELECT pg_notify($5, '') WHERE EXISTS (SELECT FROM inserted)`,
      [rows.topic, rows.keys, rows.payloads, rows.headers, rows.channel],
    );
  }

  /** Rows waiting and the age of the oldest in seconds (database clock); null age when empty. */
  async backlog(dataSource: DataSource): Promise<{ rows: number; age: number | null }> {
    const [row]: { rows: string; age: number | null }[] = await dataSource.query(
      `SELECT count(*) AS rows, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM ${this.table}`,
    );
    return { rows: Number(row.rows), age: row.age };
  }

  /** Takes the relay's lock for this transaction; false while another relay of the schema holds it. */
  lockRelay(manager: EntityManager): Promise<boolean> {
    return tryAdvisoryTransactionLock(manager, `fleet-outbox:${this.schema}`);
  }

  /** The oldest `limit` rows, in id order. */
  oldest(manager: EntityManager, limit: number): Promise<OutboxRow[]> {
    return manager.query(`SELECT id, topic, key, payload, headers FROM ${this.table} ORDER BY id LIMIT $1`, [
      limit,
    ]);
  }

  /** Deletes relayed rows. */
  async delete(manager: EntityManager, ids: string[]): Promise<void> {
    await manager.query(`DELETE FROM ${this.table} WHERE id = ANY($1::bigint[])`, [ids]);
  }
}
