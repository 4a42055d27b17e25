import { randomUUID } from 'node:crypto';
import { CommandRequestedV1, CommandResultV1, Topics } from '@fleet/contracts';
import {
  CompanyDirectory,
  Counted,
  FleetMetrics,
  InjectOutbox,
  Outbox,
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
import { CommandParameters, CommandView } from './command-view';
import { CommandQueries, StoredCommand } from './commands.queries';
import { toCommandRecord } from './dto/command-record.dto';

/** What `send` did: a new command, or (`replayed`) the one an earlier request with the same key made. */
export interface SentCommand {
  command: CommandView;
  replayed: boolean;
}

/** How long an `Idempotency-Key` stands for the command it made. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

/**
 * The command log (docs/commands.md): accepting commands (stored and announced on
 * `commands.requested.v1` in one transaction), reading them, and moving them on from the results the
 * services that carry them out report, or to `expired` when their time is up.
 */
@Injectable()
export class CommandsService {
  private readonly queries: CommandQueries;

  constructor(
    @InjectDataSource(COMMANDS_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(COMMANDS_SCHEMA) private readonly outbox: Outbox,
    @Inject(COMMAND_GATEWAY_CONFIG) private readonly config: CommandGatewayConfig,
    private readonly vehicles: CommandVehicles,
    private readonly companies: CompanyDirectory,
    private readonly metrics: FleetMetrics,
  ) {
    this.queries = new CommandQueries(dataSource);
  }

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
    const sent = await this.dataSource.transaction(async (manager) => {
      const commandId = randomUUID();
      if (idempotencyKey !== undefined) {
        const earlier = await this.claimKey(manager, principal.companyId, idempotencyKey, commandId, request);
        if (earlier !== undefined) return { command: earlier, replayed: true, changed: [] };
      }
      const createdAt = new Date();
      const expiresAt = new Date(createdAt.getTime() + this.config.ttlSeconds * 1000);
      const superseded = await this.queries.supersede(
        manager,
        vehicleId,
        parameters.type,
        commandId,
        createdAt,
      );
      const created = await this.queries.insert(manager, {
        id: commandId,
        companyId: principal.companyId,
        vehicleId,
        parameters,
        createdAt,
        expiresAt,
      });
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
      const changed = [...superseded, created];
      await this.announce(manager, changed);
      return { command: created.command, replayed: false, changed };
    });
    // Counted once committed; a replayed request changed nothing.
    this.countTransitions(sent.changed);
    return { command: sent.command, replayed: sent.replayed };
  }

  /** One command of a vehicle the token reaches, sent by a company within its reach; 404 otherwise. */
  async get(principal: Principal, commandId: string): Promise<CommandView> {
    const stored = await this.queries.byId(commandId);
    const notFound = new CommandGatewayException(
      CommandGatewayExceptionCode.CommandNotFound,
      `Command ${commandId} was not found.`,
    );
    if (!stored || !this.companies.reachableFrom(principal.companyId).includes(stored.companyId))
      throw notFound;
    try {
      await this.vehicles.reachable(principal, stored.command.vehicleId);
    } catch (error) {
      if (error instanceof CommandGatewayException) throw notFound;
      throw error;
    }
    return stored.command;
  }

  /** A vehicle's commands sent by companies within the token's reach, newest first. */
  async ofVehicle(principal: Principal, vehicleId: number, slice: Slice): Promise<Counted<CommandView>> {
    await this.vehicles.reachable(principal, vehicleId);
    return this.queries.ofVehicle(vehicleId, this.companies.reachableFrom(principal.companyId), slice);
  }

  /**
   * Moves commands on from results, in order: `sent` while the command waits, `acknowledged` or
   * `failed` once (command-lifecycle.ts). A result for a command that is finished (expired,
   * superseded, answered), unknown or of another vehicle changes nothing, so redelivered results are
   * harmless.
   */
  async applyResults(results: readonly CommandResultV1[]): Promise<void> {
    const changed = await this.dataSource.transaction(async (manager) => {
      const changes: StoredCommand[] = [];
      const announced: StoredCommand[] = [];
      for (const result of results) {
        const at = new Date(result.at);
        if (result.status === 'sent') {
          // A command sent again stays `sent`: no transition.
          const sent = await this.queries.markSent(manager, result.commandId, result.vehicleId, at);
          if (sent?.entered) changes.push(sent.stored);
        } else if (result.status === 'held') {
          // Still queued, with the reason: announced (the stream shows why), not counted as a transition.
          const held = await this.queries.hold(manager, result.commandId, result.vehicleId, result.reason ?? null);
          if (held) announced.push(held);
        } else {
          const finished = await this.queries.finish(manager, {
            commandId: result.commandId,
            vehicleId: result.vehicleId,
            status: result.status,
            at,
            reason: result.reason ?? null,
            answer: result.answer ?? null,
          });
          if (finished) changes.push(finished);
        }
      }
      await this.announce(manager, [...changes, ...announced]);
      return changes;
    });
    this.countTransitions(changed);
  }

  /** Marks every waiting command past its expiry `expired`; returns how many. */
  async expireDue(): Promise<number> {
    const expired = await this.dataSource.transaction(async (manager) => {
      const changed = await this.queries.expireDue(manager);
      await this.announce(manager, changed);
      return changed;
    });
    this.countTransitions(expired);
    return expired.length;
  }

  /**
   * Announces each status change on `commands.status-changes.v1` (outbox, in the transaction that made
   * it): the V2 command record as the read routes answer it, with the sending company, for the live
   * stream.
   */
  private async announce(manager: EntityManager, changed: readonly StoredCommand[]): Promise<void> {
    if (changed.length === 0) return;
    await this.outbox.enqueue(
      manager,
      Topics.commandStatusChanges,
      changed.map(({ command, companyId }) => ({
        key: String(command.vehicleId),
        payload: { companyId, ...toCommandRecord(command) },
      })),
    );
  }

  /** `fleet_commands_total`: one per command entering each status (the status each change entered). */
  private countTransitions(changed: readonly StoredCommand[]): void {
    for (const { command } of changed) this.metrics.commands.inc({ status: command.status });
  }

  /** Forgets idempotency keys older than their window. */
  async pruneIdempotencyKeys(): Promise<void> {
    await this.queries.pruneIdempotencyKeys(IDEMPOTENCY_WINDOW_HOURS);
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
    const taken = await this.queries.takeKey(
      manager,
      companyId,
      key,
      { commandId, request },
      IDEMPOTENCY_WINDOW_HOURS,
    );
    if (taken) return undefined;
    const held = await this.queries.heldKey(manager, companyId, key);
    if (held.request !== request) {
      throw new CommandGatewayException(
        CommandGatewayExceptionCode.IdempotencyKeyReused,
        `Idempotency-Key: "${key}" was used within the last ${IDEMPOTENCY_WINDOW_HOURS} hours for a different request`,
      );
    }
    // The key's command was stored in the transaction that took the key.
    const earlier = await this.queries.byId(held.commandId, manager);
    return earlier!.command;
  }
}
