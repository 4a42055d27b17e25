/**
 * The bare server's own statements (bare-server.ts): its transaction, and the row `Outbox.enqueue`
 * writes for the command's `commands.requested.v1` event (the platform's outbox queries are not
 * exported, and `enqueue` validates the event, which the bare side skips). The commands' and the
 * vehicles' SQL is command-gateway's own (CommandQueries, CommandVehicleQueries).
 */
import type { Pool, PoolClient } from 'pg';

/** Runs `work` in one transaction on a client of the pool: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Enqueues an event in command-gateway's outbox, as `Outbox.enqueue` does (without its NOTIFY: the
 * running command-gateway's relay finds the rows on its own). `topic` un-namespaced: the relay adds it.
 */
export async function enqueueEvent(client: PoolClient, topic: string, key: string, payload: object) {
  await client.query(
    `INSERT INTO "commands".outbox (topic, key, payload, headers)
     SELECT $1, key, payload, headers FROM unnest($2::text[], $3::jsonb[], $4::jsonb[]) AS e(key, payload, headers)`,
    [topic, [key], [JSON.stringify(payload)], [JSON.stringify({})]],
  );
}
