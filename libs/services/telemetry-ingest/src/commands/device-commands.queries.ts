import { CommandRequestedV1 } from '@fleet/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';
import { HandedCommand } from './device-command-answer';
import { DeviceCommandType } from './device-command.entity';

/**
 * SQL of the device commands (`ingest.device_commands`), and DeviceCommandQueries below, which runs
 * it typed in and out. UPDATE and DELETE ... RETURNING are wrapped in a CTE: TypeORM's query() answers
 * them as [rows, count] otherwise.
 */

/** A command still pending: not acknowledged by its device, not expired. */
const PENDING = 'acknowledged_at IS NULL AND expires_at > now()';

/**
 * A pending command due for hand-out: never handed out, or last handed out more than `resendSeconds`
 * (the placeholder of that parameter) seconds ago.
 */
const dueAfter = (resendSeconds: string) =>
  `${PENDING} AND (handed_at IS NULL OR handed_at < now() - make_interval(secs => ${resendSeconds}))`;

/**
 * Stores one requested command ($1 id, $2 vehicle, $3 type, $4 lock, $5 on, $6 requested at, $7
 * expires at) unless it expired, was stored before (a redelivery), or a later command of its type
 * for its vehicle is stored (a redelivery of an older one); stored, it replaces the earlier ones of
 * its type that were never handed out (command-gateway marks those `superseded`). One already handed
 * out stays until acknowledged or expired: the device may have carried it out, and its answer counts. Ties of `requested_at` go by id, so that of two commands exactly one wins.
 */
const STORE_COMMAND = `
  WITH fresh AS (
    INSERT INTO ingest.device_commands
      (command_id, vehicle_id, type, door_lock, ignition_on, requested_at, expires_at)
    SELECT $1::uuid, $2::integer, $3::text, $4::boolean, $5::boolean, $6::timestamptz, $7::timestamptz
    WHERE $7::timestamptz > now()
      AND NOT EXISTS (
        SELECT 1 FROM ingest.device_commands later
        WHERE later.vehicle_id = $2::integer AND later.type = $3::text
          AND (later.requested_at, later.command_id) > ($6::timestamptz, $1::uuid))
    ON CONFLICT (command_id) DO NOTHING
    RETURNING command_id
  ), replaced AS (
    DELETE FROM ingest.device_commands earlier USING fresh
    WHERE earlier.vehicle_id = $2::integer AND earlier.type = $3::text
      AND (earlier.requested_at, earlier.command_id) < ($6::timestamptz, $1::uuid)
      AND earlier.handed_at IS NULL
    RETURNING earlier.command_id
  )
  SELECT (SELECT count(*) FROM fresh)::integer AS stored`;

/**
 * Hands out the vehicle's ($1) commands that are due: never handed out, or handed out more than $2
 * seconds ago and not acknowledged. The row locks make it atomic across replicas: of two reports
 * racing, the second finds the rows just handed out and takes nothing.
 */
const HAND_OUT = `
  WITH handed AS (
    UPDATE ingest.device_commands
    SET handed_at = now(), hand_count = hand_count + 1
    WHERE vehicle_id = $1 AND ${dueAfter('$2')}
    RETURNING command_id, type, door_lock, ignition_on, requested_at, handed_at
  )
  SELECT command_id, type, door_lock, ignition_on, handed_at FROM handed ORDER BY requested_at, command_id`;

/** Marks a pending, unexpired command ($1) of the vehicle ($2) acknowledged; answers it if it was. */
const ACKNOWLEDGE = `
  WITH done AS (
    UPDATE ingest.device_commands SET acknowledged_at = now()
    WHERE command_id = $1 AND vehicle_id = $2 AND ${PENDING}
    RETURNING command_id
  )
  SELECT command_id FROM done`;

/**
 * Marks the vehicle's ($1) never-handed-out pending commands held (first time only); answers those
 * that were not held before, so that their status is told once.
 */
const HOLD = `
  WITH held AS (
    UPDATE ingest.device_commands SET held_at = now()
    WHERE vehicle_id = $1 AND ${PENDING} AND handed_at IS NULL AND held_at IS NULL
    RETURNING command_id
  )
  SELECT command_id FROM held`;

/** The vehicles with a command due now ($1: the re-send interval in seconds), as HAND_OUT sees it. */
const DUE_VEHICLES = `
  SELECT DISTINCT vehicle_id FROM ingest.device_commands WHERE ${dueAfter('$1')}`;

/** Deletes the expired commands (acknowledged ones too: their rows were kept against redeliveries). */
const PRUNE_EXPIRED = `DELETE FROM ingest.device_commands WHERE expires_at <= now()`;

/** The channel on which replicas announce vehicles with newly stored commands. */
export const DUE_CHANNEL = 'ingest_device_commands';

/** Announces the vehicles ($1: comma-separated ids) on DUE_CHANNEL; sent when the transaction commits. */
const NOTIFY_DUE = `SELECT pg_notify('${DUE_CHANNEL}', $1::text)`;

/** A command handed out to its device, and when. */
export interface HandedOut {
  command: HandedCommand;
  handedAt: Date;
}

interface HandedRow {
  command_id: string;
  type: DeviceCommandType;
  door_lock: boolean | null;
  ignition_on: boolean | null;
  handed_at: Date | string;
}

/** What DeviceCommandsService asks of the table: DeviceCommandQueries, or a fake of it in unit tests. */
export type DeviceCommandStore = Pick<DeviceCommandQueries, keyof DeviceCommandQueries>;

/**
 * The statements above, typed. Those that run in the caller's transaction take its `manager`: the
 * service publishes results inside it, so a failed publication rolls the change back.
 */
@Injectable()
export class DeviceCommandQueries {
  constructor(@InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource) {}

  /** Stores a requested device command (STORE_COMMAND); whether it was stored. */
  async store(manager: EntityManager, request: CommandRequestedV1): Promise<boolean> {
    const [row] = (await manager.query(STORE_COMMAND, [
      request.commandId,
      request.vehicleId,
      request.type,
      request.type === 'doorLock' ? (request.lock ?? null) : null,
      request.type === 'ignition' ? (request.on ?? null) : null,
      request.requestedAt,
      request.expiresAt,
    ])) as { stored: number }[];
    return row.stored > 0;
  }

  /** Announces the vehicles on DUE_CHANNEL when the transaction commits. */
  async notifyDue(manager: EntityManager, vehicleIds: Iterable<number>): Promise<void> {
    await manager.query(NOTIFY_DUE, [[...vehicleIds].join(',')]);
  }

  /** Marks the vehicle's due commands handed out (HAND_OUT); those commands, in the order requested. */
  async handOut(manager: EntityManager, vehicleId: number, resendSeconds: number): Promise<HandedOut[]> {
    const rows = (await manager.query(HAND_OUT, [vehicleId, resendSeconds])) as HandedRow[];
    return rows.map((row) => ({
      command: {
        commandId: row.command_id,
        type: row.type,
        ...(row.type === 'doorLock' ? { lock: row.door_lock === true } : {}),
        ...(row.type === 'ignition' ? { on: row.ignition_on === true } : {}),
      },
      handedAt: new Date(row.handed_at),
    }));
  }

  /**
   * Marks the vehicle's pending command acknowledged (ACKNOWLEDGE); its id as stored, or undefined when
   * none was pending.
   */
  async acknowledge(
    manager: EntityManager,
    commandId: string,
    vehicleId: number,
  ): Promise<string | undefined> {
    const [done] = (await manager.query(ACKNOWLEDGE, [commandId, vehicleId])) as { command_id: string }[];
    return done?.command_id;
  }

  /** Marks the vehicle's waiting commands held (HOLD); the ids of those not held before. */
  async hold(manager: EntityManager, vehicleId: number): Promise<string[]> {
    const rows = (await manager.query(HOLD, [vehicleId])) as { command_id: string }[];
    return rows.map((row) => row.command_id);
  }

  /** The vehicles with a command due now (DUE_VEHICLES). */
  async dueVehicles(resendSeconds: number): Promise<number[]> {
    const rows = (await this.dataSource.query(DUE_VEHICLES, [resendSeconds])) as { vehicle_id: number }[];
    return rows.map((row) => row.vehicle_id);
  }

  /** Deletes the expired commands (PRUNE_EXPIRED). */
  async pruneExpired(): Promise<void> {
    await this.dataSource.query(PRUNE_EXPIRED);
  }
}
