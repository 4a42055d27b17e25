/**
 * The bare server's statements (bare-server.ts): a faithful copy of what `CommandsService.send`
 * (libs/services/command-gateway/src/commands/commands.service.ts, a request without an
 * Idempotency-Key), `CommandVehicles.reachable` and `Outbox.enqueue` run. Change them together.
 */
import type { Pool, PoolClient } from 'pg';

/** The topic's name as command-gateway's outbox stores it (un-namespaced: the relay adds the namespace). */
const COMMANDS_REQUESTED = 'commands.requested.v1';

const COLUMNS = `id, vehicle_id, type, lock, engine_on, odometer_km, name, status, created_at, expires_at,
  sent_at, last_sent_at, finished_at, reason`;

/** A door-lock command as the service creates it. */
export interface NewDoorLock {
  commandId: string;
  companyId: number;
  vehicleId: number;
  lock: boolean;
  createdAt: Date;
  expiresAt: Date;
}

/** The companies a vehicle of command-gateway's projection belongs to, if it is known. */
export async function vehicleCompanies(pool: Pool, vehicleId: number): Promise<number[] | undefined> {
  const {
    rows: [vehicle],
  } = await pool.query<{ company_ids: number[] }>(
    'SELECT company_ids FROM commands.vehicles WHERE vehicle_id = $1',
    [vehicleId],
  );
  return vehicle?.company_ids;
}

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

/** Supersedes the vehicle's queued door-lock commands, inserts the new one, and enqueues its event. */
export async function insertDoorLock(client: PoolClient, command: NewDoorLock): Promise<object> {
  const { commandId, companyId, vehicleId, lock, createdAt, expiresAt } = command;
  await client.query(
    `UPDATE commands.commands SET status = 'superseded', finished_at = $4, reason = $5
      WHERE vehicle_id = $1 AND type = $2 AND status = 'queued' AND id <> $3`,
    [vehicleId, 'doorLock', commandId, createdAt, `superseded by command ${commandId}`],
  );
  const {
    rows: [row],
  } = await client.query(
    `INSERT INTO commands.commands
       (id, company_id, vehicle_id, type, lock, engine_on, odometer_km, name, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING ${COLUMNS}`,
    [commandId, companyId, vehicleId, 'doorLock', lock, null, null, null, createdAt, expiresAt],
  );
  const requested = {
    commandId,
    vehicleId,
    companyId,
    type: 'doorLock',
    lock,
    requestedAt: createdAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
  await client.query(
    `INSERT INTO "commands".outbox (topic, key, payload, headers)
     SELECT $1, key, payload, headers FROM unnest($2::text[], $3::jsonb[], $4::jsonb[]) AS e(key, payload, headers)`,
    [COMMANDS_REQUESTED, [String(vehicleId)], [JSON.stringify(requested)], [JSON.stringify({})]],
  );
  return row as object;
}
