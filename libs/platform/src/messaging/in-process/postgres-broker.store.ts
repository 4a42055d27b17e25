import { Client, Pool } from 'pg';
import { RawMessage } from '../message';
import {
  BrokerStore,
  DeleteRange,
  GroupOffset,
  PartitionRange,
  StoredMessage,
  StoredState,
} from './broker-store';

export interface PostgresBrokerStoreOptions {
  /** The schema of the broker's tables; one broker per schema (default `in_process_broker`). */
  schema?: string;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** How long to wait for a broker that still holds the schema (a process shutting down) before failing. */
  lockTimeoutMs?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The in-process broker's log and group positions in PostgreSQL (`<schema>.messages`,
 * `<schema>.group_offsets`), through a small pool of its own. The tables are created at start if
 * missing. While a broker is open it holds a session advisory lock on its schema, so a second
 * process on the same database fails at start instead of assigning the same offsets; the lock goes
 * with the connection, so a killed process does not keep it.
 */
export class PostgresBrokerStore implements BrokerStore {
  private constructor(
    private readonly pool: Pool,
    /** Group positions only: see `commit`. */
    private readonly positions: Pool,
    private readonly lock: Client,
    private readonly schema: string,
  ) {}

  static async connect(url: string, options: PostgresBrokerStoreOptions = {}): Promise<PostgresBrokerStore> {
    const schema = options.schema ?? 'in_process_broker';
    if (!SCHEMA_NAME.test(schema)) throw new Error(`not a plain schema name: ${schema}`);
    const applicationName = options.applicationName ?? 'in-process-broker';
    // A report is answered only once its message is on disk, whatever the server's default says.
    const connection = {
      connectionString: url,
      application_name: applicationName,
      options: '-c synchronous_commit=on',
    };
    const lock = new Client(connection);
    await lock.connect();
    try {
      await lock.query(`SET lock_timeout = ${Math.round(options.lockTimeoutMs ?? 15_000)}`);
      await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`fleet-in-process-broker:${schema}`]);
    } catch (error) {
      await lock.end().catch(() => undefined);
      throw (error as { code?: string }).code === '55P03'
        ? new Error(`another process runs the in-process broker on this database (schema ${schema})`)
        : error;
    }
    // Losing the lock's connection is noticed by the pool's next query; do not crash on it here.
    lock.on('error', () => undefined);
    try {
      await lock.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await lock.query(`
        CREATE TABLE IF NOT EXISTS "${schema}".messages (
          topic text NOT NULL,
          partition int NOT NULL,
          "offset" bigint NOT NULL,
          key text,
          value text NOT NULL,
          headers text NOT NULL,
          PRIMARY KEY (topic, partition, "offset")
        )`);
      await lock.query(`
        CREATE TABLE IF NOT EXISTS "${schema}".group_offsets (
          topic text NOT NULL,
          group_id text NOT NULL,
          partition int NOT NULL,
          next_offset bigint NOT NULL,
          PRIMARY KEY (topic, group_id, partition)
        )`);
    } catch (error) {
      await lock.end().catch(() => undefined);
      throw error;
    }
    const pool = new Pool({ ...connection, max: 3, connectionTimeoutMillis: 5_000 });
    const positions = new Pool({
      ...connection,
      options: '-c synchronous_commit=off',
      max: 1,
      connectionTimeoutMillis: 5_000,
    });
    // An idle connection's error (the server restarting) surfaces on the next query; do not crash.
    pool.on('error', () => undefined);
    positions.on('error', () => undefined);
    return new PostgresBrokerStore(pool, positions, lock, schema);
  }

  async load(): Promise<StoredState> {
    const ranges = await this.pool.query<{ topic: string; partition: number; first: string; last: string }>(
      `SELECT topic, partition, min("offset") AS first, max("offset") AS last
         FROM "${this.schema}".messages GROUP BY topic, partition`,
    );
    const partitions = new Map<string, Map<number, PartitionRange>>();
    for (const row of ranges.rows) {
      const byPartition = partitions.get(row.topic) ?? new Map<number, PartitionRange>();
      partitions.set(row.topic, byPartition);
      byPartition.set(row.partition, { start: Number(row.first), end: Number(row.last) + 1 });
    }
    const offsets = await this.pool.query<{
      topic: string;
      group_id: string;
      partition: number;
      next_offset: string;
    }>(`SELECT topic, group_id, partition, next_offset FROM "${this.schema}".group_offsets`);
    return {
      partitions,
      offsets: offsets.rows.map((row) => ({
        topic: row.topic,
        group: row.group_id,
        partition: row.partition,
        offset: Number(row.next_offset),
      })),
    };
  }

  async append(messages: readonly StoredMessage[]): Promise<void> {
    // One statement, so one transaction: committed (and on disk) when it returns.
    await this.pool.query({
      name: `${this.schema}-append`,
      text: `INSERT INTO "${this.schema}".messages (topic, partition, "offset", key, value, headers)
             SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[], $5::text[], $6::text[])`,
      values: [
        messages.map((m) => m.topic),
        messages.map((m) => m.partition),
        messages.map((m) => m.offset),
        messages.map((m) => m.key),
        messages.map((m) => m.value),
        messages.map((m) => JSON.stringify(m.headers)),
      ],
    });
  }

  async read(topic: string, partition: number, from: number, max: number): Promise<RawMessage[]> {
    const result = await this.pool.query<{
      offset: string;
      key: string | null;
      value: string;
      headers: string;
    }>({
      name: `${this.schema}-read`,
      text: `SELECT "offset", key, value, headers FROM "${this.schema}".messages
              WHERE topic = $1 AND partition = $2 AND "offset" >= $3
              ORDER BY "offset" LIMIT $4`,
      values: [topic, partition, from, max],
    });
    return result.rows.map((row) => ({
      key: row.key,
      value: row.value,
      headers: JSON.parse(row.headers) as Record<string, string>,
      offset: row.offset,
    }));
  }

  /**
   * Without waiting for the disk (synchronous_commit off): a position lost in a crash only means
   * redelivery, which consumers tolerate. Deleting what a position allows waits for the disk, and
   * PostgreSQL's log is sequential, so a deletion is never durable before the positions it relied on.
   */
  async commit(offsets: readonly GroupOffset[]): Promise<void> {
    await this.positions.query({
      name: `${this.schema}-commit`,
      text: `INSERT INTO "${this.schema}".group_offsets (topic, group_id, partition, next_offset)
             SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[])
             ON CONFLICT (topic, group_id, partition) DO UPDATE SET next_offset = excluded.next_offset`,
      values: [
        offsets.map((o) => o.topic),
        offsets.map((o) => o.group),
        offsets.map((o) => o.partition),
        offsets.map((o) => o.offset),
      ],
    });
  }

  /**
   * One range per statement, bounded below as well: the index still holds entries of rows deleted
   * before until vacuum removes them, and a range open below made every pass walk over all of them
   * (it was the busiest statement of the embedded bench). One transaction, committed to disk.
   */
  async deleteBefore(cuts: readonly DeleteRange[]): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const cut of cuts) {
        await client.query({
          name: `${this.schema}-delete`,
          text: `DELETE FROM "${this.schema}".messages
                  WHERE topic = $1 AND partition = $2 AND "offset" >= $3 AND "offset" < $4`,
          values: [cut.topic, cut.partition, cut.from, cut.before],
        });
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async compact(topic: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM "${this.schema}".messages m
        USING (SELECT partition, "offset"
                 FROM (SELECT partition, "offset",
                              row_number() OVER (PARTITION BY partition, key ORDER BY "offset" DESC) AS newer
                         FROM "${this.schema}".messages WHERE topic = $1) ranked
                WHERE newer > 1) superseded
        WHERE m.topic = $1 AND m.partition = superseded.partition AND m."offset" = superseded."offset"`,
      [topic],
    );
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.positions.end();
    await this.lock.end();
  }
}
