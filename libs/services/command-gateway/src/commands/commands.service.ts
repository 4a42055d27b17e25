import { randomUUID } from 'node:crypto';
import { CommandRequestedV1, CommandResultV1, Topics } from '@fleet/contracts';
import {
  CompanyDirectory,
  FleetMetrics,
  InjectOutbox,
  Outbox,
  pagedRows,
  PagedRow,
  Principal,
  Slice,
} from '@fleet/platform';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { COMMAND_GATEWAY_CONFIG, CommandGatewayConfig } from '../command-gateway.config';
import { CommandGatewayException, CommandGatewayExceptionCode } from '../command-gateway.exception';
import { COMMANDS_SCHEMA } from '../command-gateway.schema.constants';
import { CommandVehicles } from '../vehicles/command-vehicles';
import { CommandStatus } from './command.entity';
import { toCommandRecord } from './dto/command-record.dto';

/** What a sending route asks for: the type and only its own parameter. */
export type CommandParameters =
  | { type: 'doorLock'; lock: boolean }
  | { type: 'ignition'; on: boolean }
  | { type: 'locate' }
  | { type: 'odometer'; odometerKm: number }
  | { type: 'name'; name: string };

/** A command as routes answer it. */
export interface CommandView {
  id: string;
  vehicleId: number;
  parameters: CommandParameters;
  status: CommandStatus;
  createdAt: Date;
  expiresAt: Date;
  sentAt: Date | null;
  lastSentAt: Date | null;
  finishedAt: Date | null;
  reason: string | null;
  deviceAnswer: string | null;
}

/** What `send` did: a new command, or (`replayed`) the one an earlier request with the same key made. */
export interface SentCommand {
  command: CommandView;
  replayed: boolean;
}

/** How long an `Idempotency-Key` stands for the command it made. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

interface CommandRow {
  id: string;
  vehicle_id: number;
  type: CommandParameters['type'];
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

const COLUMNS = `id, vehicle_id, type, lock, engine_on, odometer_km, name, status, created_at, expires_at,
  sent_at, last_sent_at, finished_at, reason, device_answer`;

/** A row with the company that sent it: what a status change announces. */
type ChangedRow = CommandRow & { company_id: number };

/**
 * The command log (docs/commands.md): accepting commands (stored and announced on
 * `commands.requested.v1` in one transaction), reading them, and moving them on from the results the
 * services that carry them out report, or to `expired` when their time is up.
 */
@Injectable()
export class CommandsService {
  constructor(
    @InjectDataSource(COMMANDS_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(COMMANDS_SCHEMA) private readonly outbox: Outbox,
    @Inject(COMMAND_GATEWAY_CONFIG) private readonly config: CommandGatewayConfig,
    private readonly vehicles: CommandVehicles,
    private readonly companies: CompanyDirectory,
    private readonly metrics: FleetMetrics,
  ) {}

  /**
   * Accepts a command for a vehicle the token reaches (404 otherwise). A queued command of the same
   * type for the vehicle is superseded. With an idempotency key already used by the company within
   * 24 hours, answers that key's command instead (422 when the key was used for a different request).
   */
  async send(
    principal: Principal,
    vehicleId: number,
    parameters: CommandParameters,
    idempotencyKey?: string,
  ): Promise<SentCommand> {
    await this.vehicles.reachable(principal, vehicleId);
    const request = JSON.stringify({ vehicleId, ...parameters });
    let superseded = 0;
    const sent = await this.dataSource.transaction(async (manager) => {
      const commandId = randomUUID();
      if (idempotencyKey !== undefined) {
        const earlier = await this.claimKey(manager, principal.companyId, idempotencyKey, commandId, request);
        if (earlier !== undefined) return { command: earlier, replayed: true };
      }
      const createdAt = new Date();
      const expiresAt = new Date(createdAt.getTime() + this.config.ttlSeconds * 1000);
      const replaced: ChangedRow[] = await manager.query(
        // In a CTE: TypeORM answers a bare UPDATE with [rows, count].
        `WITH done AS (
           UPDATE commands.commands SET status = 'superseded', finished_at = $4, reason = $5
            WHERE vehicle_id = $1 AND type = $2 AND status = 'queued' AND id <> $3
            RETURNING ${COLUMNS}, company_id)
         SELECT * FROM done`,
        [vehicleId, parameters.type, commandId, createdAt, `superseded by command ${commandId}`],
      );
      superseded = replaced.length;
      const [row]: ChangedRow[] = await manager.query(
        `INSERT INTO commands.commands
           (id, company_id, vehicle_id, type, lock, engine_on, odometer_km, name, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING ${COLUMNS}, company_id`,
        [
          commandId,
          principal.companyId,
          vehicleId,
          parameters.type,
          parameters.type === 'doorLock' ? parameters.lock : null,
          parameters.type === 'ignition' ? parameters.on : null,
          parameters.type === 'odometer' ? parameters.odometerKm : null,
          parameters.type === 'name' ? parameters.name : null,
          createdAt,
          expiresAt,
        ],
      );
      const requested: CommandRequestedV1 = {
        commandId,
        vehicleId,
        companyId: principal.companyId,
        ...parameters,
        requestedAt: createdAt.toISOString(),
        expiresAt: expiresAt.toISOString(),
      };
      await this.outbox.enqueue(manager, Topics.commandsRequested, [
        { key: String(vehicleId), payload: requested },
      ]);
      await this.announce(manager, [...replaced, row]);
      return { command: viewOf(row), replayed: false };
    });
    // Counted once committed, and a replayed request changed nothing.
    if (!sent.replayed)
      this.countTransitions([...Array<CommandStatus>(superseded).fill('superseded'), 'queued']);
    return sent;
  }

  /** One command of a vehicle the token reaches, sent by a company within its reach; 404 otherwise. */
  async get(principal: Principal, commandId: string): Promise<CommandView> {
    const [row]: (CommandRow & { company_id: number })[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, company_id FROM commands.commands WHERE id = $1`,
      [commandId],
    );
    const notFound = new CommandGatewayException(
      CommandGatewayExceptionCode.CommandNotFound,
      `Command ${commandId} was not found.`,
    );
    if (!row || !this.companies.reachableFrom(principal.companyId).includes(row.company_id)) throw notFound;
    try {
      await this.vehicles.reachable(principal, row.vehicle_id);
    } catch (error) {
      if (error instanceof CommandGatewayException) throw notFound;
      throw error;
    }
    return viewOf(row);
  }

  /** A vehicle's commands sent by companies within the token's reach, newest first. */
  async ofVehicle(
    principal: Principal,
    vehicleId: number,
    slice: Slice,
  ): Promise<{ rows: CommandView[]; total: number }> {
    await this.vehicles.reachable(principal, vehicleId);
    const rows: PagedRow<CommandRow & { total: string }>[] = await this.dataSource.query(
      `SELECT counted.total, page.*
         FROM (SELECT count(*) AS total FROM commands.commands
                WHERE vehicle_id = $1 AND company_id = ANY($2::int[])) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, ${COLUMNS} FROM commands.commands
            WHERE vehicle_id = $1 AND company_id = ANY($2::int[])
            ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4) page ON true`,
      [vehicleId, this.companies.reachableFrom(principal.companyId), slice.limit, slice.offset],
    );
    const page = pagedRows(rows);
    return { rows: page.rows.map(viewOf), total: page.total };
  }

  /**
   * Moves commands on from results, in order: `sent` while the command waits, `acknowledged` or
   * `failed` once. A result for a command that is finished (expired, superseded, answered), unknown or
   * of another vehicle changes nothing, so redelivered results are harmless.
   */
  async applyResults(results: readonly CommandResultV1[]): Promise<void> {
    const entered = await this.dataSource.transaction(async (manager) => {
      const statuses: CommandStatus[] = [];
      const changes: ChangedRow[] = [];
      for (const result of results) {
        // `waiting` is the row as it was (locked): a command sent again stays `sent`: no transition.
        const [changed]: (ChangedRow & { entered: boolean })[] =
          result.status === 'sent'
            ? await manager.query(
                `WITH waiting AS (
                   SELECT id, status FROM commands.commands
                    WHERE id = $1 AND vehicle_id = $2 AND status IN ('queued', 'sent') FOR UPDATE),
                 done AS (
                   UPDATE commands.commands c
                      SET status = 'sent', sent_at = LEAST(COALESCE(sent_at, $3), $3),
                          last_sent_at = GREATEST(COALESCE(last_sent_at, $3), $3)
                     FROM waiting WHERE c.id = waiting.id
                   RETURNING c.*, waiting.status = 'queued' AS entered)
                 SELECT ${COLUMNS}, company_id, entered FROM done`,
                [result.commandId, result.vehicleId, new Date(result.at)],
              )
            : await manager.query(
                `WITH done AS (
                   UPDATE commands.commands SET status = $3, finished_at = $4, reason = $5, device_answer = $6
                    WHERE id = $1 AND vehicle_id = $2 AND status IN ('queued', 'sent')
                   RETURNING *, true AS entered)
                 SELECT ${COLUMNS}, company_id, entered FROM done`,
                [
                  result.commandId,
                  result.vehicleId,
                  result.status,
                  new Date(result.at),
                  result.reason ?? null,
                  result.answer ?? null,
                ],
              );
        if (changed?.entered) {
          statuses.push(result.status);
          changes.push(changed);
        }
      }
      await this.announce(manager, changes);
      return statuses;
    });
    this.countTransitions(entered);
  }

  /** Marks every waiting command past its expiry `expired`; returns how many. */
  async expireDue(): Promise<number> {
    const expired = await this.dataSource.transaction(async (manager) => {
      const rows: ChangedRow[] = await manager.query(
        `WITH done AS (
           UPDATE commands.commands SET status = 'expired', finished_at = expires_at,
                  reason = 'no answer before the command expired'
            WHERE status IN ('queued', 'sent') AND expires_at <= now()
            RETURNING ${COLUMNS}, company_id)
         SELECT * FROM done`,
      );
      await this.announce(manager, rows);
      return rows.length;
    });
    this.countTransitions(Array<CommandStatus>(expired).fill('expired'));
    return expired;
  }

  /**
   * Announces each status change on `commands.status-changes.v1` (outbox, in the transaction that made
   * it): the V2 command record as the read routes answer it, with the sending company, for the live
   * stream.
   */
  private async announce(manager: EntityManager, rows: readonly ChangedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.outbox.enqueue(
      manager,
      Topics.commandStatusChanges,
      rows.map((row) => ({
        key: String(row.vehicle_id),
        payload: { companyId: row.company_id, ...toCommandRecord(viewOf(row)) },
      })),
    );
  }

  /** `fleet_commands_total`: one per command entering each status. */
  private countTransitions(statuses: readonly CommandStatus[]): void {
    for (const status of statuses) this.metrics.commands.inc({ status });
  }

  /** Forgets idempotency keys older than their window. */
  async pruneIdempotencyKeys(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM commands.idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
      [IDEMPOTENCY_WINDOW_HOURS],
    );
  }

  /**
   * Takes `key` for the command about to be made, or finds the command it already stands for. A key
   * past its window is taken over. A concurrent request with the same key waits on the key's row
   * until the first commits, then finds its command.
   */
  private async claimKey(
    manager: EntityManager,
    companyId: number,
    key: string,
    commandId: string,
    request: string,
  ): Promise<CommandView | undefined> {
    const claimed: unknown[] = await manager.query(
      `INSERT INTO commands.idempotency_keys AS held (company_id, key, command_id, request, created_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (company_id, key) DO UPDATE
         SET command_id = EXCLUDED.command_id, request = EXCLUDED.request, created_at = EXCLUDED.created_at
         WHERE held.created_at < now() - make_interval(hours => $5)
       RETURNING 1`,
      [companyId, key, commandId, request, IDEMPOTENCY_WINDOW_HOURS],
    );
    if (claimed.length > 0) return undefined;
    const [held]: { command_id: string; request: string }[] = await manager.query(
      'SELECT command_id, request FROM commands.idempotency_keys WHERE company_id = $1 AND key = $2',
      [companyId, key],
    );
    if (held.request !== request) {
      throw new CommandGatewayException(
        CommandGatewayExceptionCode.IdempotencyKeyReused,
        `Idempotency-Key: "${key}" was used within the last ${IDEMPOTENCY_WINDOW_HOURS} hours for a different request`,
      );
    }
    const [row]: CommandRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM commands.commands WHERE id = $1`,
      [held.command_id],
    );
    return viewOf(row);
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
