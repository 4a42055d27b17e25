import { CommandType } from '@fleet/contracts';
import { Counted, deleteInBatches, pagedRows, PagedRow, Slice } from '@fleet/platform';
import { DataSource, EntityManager } from 'typeorm';
import {
  acceptedStatus,
  CommandEvent,
  commandLifecycle,
  statusesChangedBy,
  statusesFrom,
} from './command-lifecycle';
import { CommandStatus } from './command.entity';
import { CommandParameters, CommandView } from './command-view';

/** A command as stored: as the routes answer it, and the company that sent it. */
export interface StoredCommand {
  command: CommandView;
  companyId: number;
}

/** A command about to be stored, `queued`. */
export interface NewCommand {
  id: string;
  companyId: number;
  vehicleId: number;
  parameters: CommandParameters;
  createdAt: Date;
  expiresAt: Date;
}

/** A result that finishes a command. */
export interface FinishingResult {
  commandId: string;
  vehicleId: number;
  status: 'acknowledged' | 'failed';
  at: Date;
  reason: string | null;
  answer: string | null;
}

/** The request and the command an `Idempotency-Key` stands for. */
export interface HeldKey {
  commandId: string;
  request: string;
}

interface CommandRow {
  id: string;
  company_id: number;
  vehicle_id: number;
  type: CommandType;
  lock: boolean | null;
  engine_on: boolean | null;
  odometer_km: number | null;
  name: string | null;
  status: CommandStatus;
  created_at: Date;
  expires_at: Date;
  sent_at: Date | null;
  last_sent_at: Date | null;
  finished_at: Date | null;
  reason: string | null;
  device_answer: string | null;
}

const COLUMNS = `id, company_id, vehicle_id, type, lock, engine_on, odometer_km, name, status, created_at,
  expires_at, sent_at, last_sent_at, finished_at, reason, device_answer`;

/**
 * All SQL of the command log (`commands.commands`) and the idempotency keys (`commands.idempotency_keys`).
 * The statuses a statement changes a command from, and the one it enters, come from the lifecycle
 * (command-lifecycle.ts). Statements that run in the caller's transaction take its `manager`. UPDATE
 * ... RETURNING is wrapped in a CTE: TypeORM's query() answers a bare one as [rows, count].
 */
export class CommandQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** Marks the vehicle's queued commands of `type` superseded by command `by` (at `at`); those commands. */
  async supersede(
    manager: EntityManager,
    vehicleId: number,
    type: CommandType,
    by: string,
    at: Date,
  ): Promise<StoredCommand[]> {
    const rows: CommandRow[] = await manager.query(
      `WITH done AS (
         UPDATE commands.commands SET status = $6::text, finished_at = $4, reason = $5
          WHERE vehicle_id = $1 AND type = $2 AND status = ANY($7::text[]) AND id <> $3
          RETURNING ${COLUMNS})
       SELECT * FROM done`,
      [
        vehicleId,
        type,
        by,
        at,
        `superseded by command ${by}`,
        commandLifecycle.superseded.to,
        statusesFrom('superseded'),
      ],
    );
    return rows.map(storedOf);
  }

  /** Stores a new command in the accepted status (`queued`), with only its type's parameter; the command. */
  async insert(manager: EntityManager, command: NewCommand): Promise<StoredCommand> {
    const { parameters } = command;
    const [row]: CommandRow[] = await manager.query(
      `INSERT INTO commands.commands
         (id, company_id, vehicle_id, type, lock, engine_on, odometer_km, name, created_at, expires_at, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING ${COLUMNS}`,
      [
        command.id,
        command.companyId,
        command.vehicleId,
        parameters.type,
        parameters.type === 'doorLock' ? parameters.lock : null,
        parameters.type === 'ignition' ? parameters.on : null,
        parameters.type === 'odometer' ? parameters.odometerKm : null,
        parameters.type === 'name' ? parameters.name : null,
        command.createdAt,
        command.expiresAt,
        acceptedStatus,
      ],
    );
    return storedOf(row);
  }

  /** The command `id` (read in `manager`'s transaction when given); undefined when there is none. */
  async byId(id: string, manager?: EntityManager): Promise<StoredCommand | undefined> {
    const [row]: CommandRow[] = await (manager ?? this.dataSource).query(
      `SELECT ${COLUMNS} FROM commands.commands WHERE id = $1`,
      [id],
    );
    return row ? storedOf(row) : undefined;
  }

  /** A page of the vehicle's commands sent by `companyIds`, newest first, and how many there are. */
  async ofVehicle(
    vehicleId: number,
    companyIds: readonly number[],
    slice: Slice,
  ): Promise<Counted<CommandView>> {
    const rows: PagedRow<CommandRow & { total: string }>[] = await this.dataSource.query(
      `SELECT counted.total, page.*
         FROM (SELECT count(*) AS total FROM commands.commands
                WHERE vehicle_id = $1 AND company_id = ANY($2::int[])) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, ${COLUMNS} FROM commands.commands
            WHERE vehicle_id = $1 AND company_id = ANY($2::int[])
            ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4) page ON true`,
      [vehicleId, companyIds, slice.limit, slice.offset],
    );
    const page = pagedRows(rows);
    return { rows: page.rows.map(viewOf), total: page.total };
  }

  /**
   * Marks the vehicle's command `commandId` `sent` at `at` if it is waiting (row locked): `sentAt` the
   * earliest hand-out, `lastSentAt` the latest. The command, and whether it entered `sent` (it was
   * queued) rather than was sent again; undefined when no waiting command of the vehicle has that id.
   */
  async markSent(
    manager: EntityManager,
    commandId: string,
    vehicleId: number,
    at: Date,
  ): Promise<{ stored: StoredCommand; entered: boolean } | undefined> {
    // `waiting` is the row as it was: its status says whether this was a transition.
    const [row]: (CommandRow & { entered: boolean })[] = await manager.query(
      `WITH waiting AS (
         SELECT id, status FROM commands.commands
          WHERE id = $1 AND vehicle_id = $2 AND status = ANY($4::text[]) FOR UPDATE),
       done AS (
         UPDATE commands.commands c
            SET status = $5::text, sent_at = LEAST(COALESCE(sent_at, $3), $3), reason = NULL,
                last_sent_at = GREATEST(COALESCE(last_sent_at, $3), $3)
           FROM waiting WHERE c.id = waiting.id
         RETURNING c.*, waiting.status = ANY($6::text[]) AS entered)
       SELECT ${COLUMNS}, entered FROM done`,
      [commandId, vehicleId, at, statusesFrom('sent'), commandLifecycle.sent.to, statusesChangedBy('sent')],
    );
    return row ? { stored: storedOf(row), entered: row.entered } : undefined;
  }

  /**
   * Finishes the vehicle's command with the result (its status, time, reason and device answer) if
   * the command is waiting; the command, or undefined when no waiting command of the vehicle has that id.
   */
  async finish(manager: EntityManager, result: FinishingResult): Promise<StoredCommand | undefined> {
    const event: CommandEvent = result.status;
    const [row]: CommandRow[] = await manager.query(
      `WITH done AS (
         UPDATE commands.commands SET status = $3, finished_at = $4, reason = $5, device_answer = $6
          WHERE id = $1 AND vehicle_id = $2 AND status = ANY($7::text[])
         RETURNING *)
       SELECT ${COLUMNS} FROM done`,
      [
        result.commandId,
        result.vehicleId,
        commandLifecycle[event].to,
        result.at,
        result.reason,
        result.answer,
        statusesFrom(event),
      ],
    );
    return row ? storedOf(row) : undefined;
  }

  /**
   * Gives the vehicle's queued command `commandId` the reason it is held back (a `held` result); the
   * command when its reason changed, undefined when it is not queued or already said so.
   */
  async hold(
    manager: EntityManager,
    commandId: string,
    vehicleId: number,
    reason: string | null,
  ): Promise<StoredCommand | undefined> {
    const [row]: CommandRow[] = await manager.query(
      `WITH done AS (
         UPDATE commands.commands SET reason = $3
          WHERE id = $1 AND vehicle_id = $2 AND status = ANY($4::text[]) AND reason IS DISTINCT FROM $3
         RETURNING *)
       SELECT ${COLUMNS} FROM done`,
      [commandId, vehicleId, reason, statusesFrom('held')],
    );
    return row ? storedOf(row) : undefined;
  }

  /** Marks every waiting command past its expiry `expired` (finished at its expiry); those commands. */
  async expireDue(manager: EntityManager): Promise<StoredCommand[]> {
    const rows: CommandRow[] = await manager.query(
      `WITH done AS (
         UPDATE commands.commands SET status = $1::text, finished_at = expires_at,
                reason = CASE WHEN status = ANY($3::text[]) AND reason IS NOT NULL
                              THEN 'expired ' || reason
                              ELSE 'no answer before the command expired' END
          WHERE status = ANY($2::text[]) AND expires_at <= now()
          RETURNING ${COLUMNS})
       SELECT * FROM done`,
      // A held command's reason says why nothing answered it: "expired waiting for an authenticated device".
      [commandLifecycle.expired.to, statusesFrom('expired'), statusesFrom('held')],
    );
    return rows.map(storedOf);
  }

  /** Deletes the commands that finished more than `days` ago, a batch at a time; how many went. */
  pruneFinished(days: number): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      `DELETE FROM commands.commands WHERE id IN (
         SELECT id FROM commands.commands WHERE finished_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days],
    );
  }

  /** Forgets idempotency keys older than `windowHours`. */
  async pruneIdempotencyKeys(windowHours: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM commands.idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
      [windowHours],
    );
  }

  /**
   * Takes the company's `key` for command `commandId` and its `request`, unless the key is held and
   * younger than `windowHours` (a concurrent taker waits on the key's row until the holder commits);
   * whether it was taken.
   */
  async takeKey(
    manager: EntityManager,
    companyId: number,
    key: string,
    held: HeldKey,
    windowHours: number,
  ): Promise<boolean> {
    const taken: unknown[] = await manager.query(
      `INSERT INTO commands.idempotency_keys AS held (company_id, key, command_id, request, created_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (company_id, key) DO UPDATE
         SET command_id = EXCLUDED.command_id, request = EXCLUDED.request, created_at = EXCLUDED.created_at
         WHERE held.created_at < now() - make_interval(hours => $5)
       RETURNING 1`,
      [companyId, key, held.commandId, held.request, windowHours],
    );
    return taken.length > 0;
  }

  /** What the company's `key` stands for; the key is held (`takeKey` just found it so). */
  async heldKey(manager: EntityManager, companyId: number, key: string): Promise<HeldKey> {
    const [row]: { command_id: string; request: string }[] = await manager.query(
      'SELECT command_id, request FROM commands.idempotency_keys WHERE company_id = $1 AND key = $2',
      [companyId, key],
    );
    return { commandId: row.command_id, request: row.request };
  }
}

function parametersOf(row: CommandRow): CommandParameters {
  switch (row.type) {
    case 'doorLock':
      return { type: 'doorLock', lock: row.lock === true };
    case 'ignition':
      return { type: 'ignition', on: row.engine_on === true };
    case 'locate':
      return { type: 'locate' };
    case 'odometer':
      return { type: 'odometer', odometerKm: Number(row.odometer_km) };
    case 'name':
      return { type: 'name', name: row.name ?? '' };
  }
}

function viewOf(row: CommandRow): CommandView {
  return {
    id: row.id,
    vehicleId: row.vehicle_id,
    parameters: parametersOf(row),
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    sentAt: row.sent_at,
    lastSentAt: row.last_sent_at,
    finishedAt: row.finished_at,
    reason: row.reason,
    deviceAnswer: row.device_answer,
  };
}

const storedOf = (row: CommandRow): StoredCommand => ({ command: viewOf(row), companyId: row.company_id });
