import { CommandRequestedV1, CommandResultV1, deviceCommandTypes, Topics } from '@fleet/contracts';
import { EventPublisher } from '@fleet/platform';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { CommandAcknowledgement } from '../osmand/osmand-report';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';
import { HandedCommand } from './device-command-answer';
import { DeviceCommandQueries } from './device-commands.queries';
import { DueCommandVehicles } from './due-command-vehicles';

/** The reason a `failed` result gives when the device reported `cmdstatus=failed`. */
export const DEVICE_FAILURE_REASON = 'the device reported failure';

/**
 * Device commands on the tracker port (issue 19): stores what `commands.requested.v1` asks of
 * devices, hands pending commands out in the answers to their devices' reports, and takes the
 * devices' acknowledgements; each step publishes its `commands.results.v1` result. docs/osmand.md,
 * "Commands (extension)", is the device's side.
 */
@Injectable()
export class DeviceCommandsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeviceCommandsService.name);
  private readonly due: DueCommandVehicles;
  private readonly dueListeners: ((vehicleIds: readonly number[]) => void)[] = [];
  /** Per vehicle, the due mark whose commands were last held (no query again until more are due). */
  private readonly heldMarks = new LRUCache<number, number>({ max: 100_000 });

  constructor(
    @InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource,
    private readonly publisher: EventPublisher,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
    private readonly queries: DeviceCommandQueries,
  ) {
    this.due = new DueCommandVehicles({
      dueVehicles: () => this.queries.dueVehicles(this.config.commandResendSeconds),
      pruneExpired: () => this.queries.pruneExpired(),
      becameDue: (vehicleIds) => {
        for (const listener of this.dueListeners) listener(vehicleIds);
      },
    });
  }

  /**
   * Calls `listener` with vehicles that have commands due: stored by this replica, found by the periodic
   * read, or announced by another replica (`markDue`). The tracker sessions hand them out at once.
   */
  onDue(listener: (vehicleIds: readonly number[]) => void): void {
    this.dueListeners.push(listener);
  }

  /** Another replica stored commands for these vehicles (its notification on `ingest_device_commands`). */
  markDue(vehicleIds: readonly number[]): void {
    this.due.add(vehicleIds);
  }

  /** Knows what is due before the first report after a start is answered. */
  async onApplicationBootstrap(): Promise<void> {
    await this.due.refresh();
    this.due.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.due.stop();
  }

  /**
   * Stores the device commands among the requests, in order, in one transaction (redelivered,
   * expired and superseded ones change nothing); the other types are query-api's.
   */
  async record(requests: readonly CommandRequestedV1[]): Promise<void> {
    const deviceRequests = requests.filter((request) => deviceCommandTypes.includes(request.type));
    if (deviceRequests.length === 0) return;
    const stored = new Set<number>();
    await this.dataSource.transaction(async (manager) => {
      for (const request of deviceRequests) {
        if (await this.queries.store(manager, request)) stored.add(request.vehicleId);
      }
      // Delivered at commit to every replica's listener (CommandNotifications): the one holding the
      // device's connection hands the command out within milliseconds, not at its next periodic read.
      if (stored.size > 0) await this.queries.notifyDue(manager, stored);
    });
    this.due.add(stored);
  }

  /**
   * The vehicle's commands that are due, marked handed out, with `sent` published for each. Never
   * fails: the report is accepted already, so on any failure nothing is handed out this time (the
   * rows stay as they were, and are due at the next report).
   */
  async handOut(vehicleId: number): Promise<HandedCommand[]> {
    const mark = this.due.markOf(vehicleId);
    if (mark === undefined) return [];
    try {
      const handed = await this.dataSource.transaction(async (manager) => {
        const handedOut = await this.queries.handOut(manager, vehicleId, this.config.commandResendSeconds);
        // Inside the transaction: if `sent` cannot be published, the rows are rolled back.
        if (handedOut.length > 0) {
          await this.publishResults(
            handedOut.map(({ command, handedAt }) => ({
              commandId: command.commandId,
              vehicleId,
              status: 'sent',
              at: handedAt.toISOString(),
            })),
          );
        }
        return handedOut;
      });
      this.due.settle(vehicleId, mark);
      return handed.map(({ command }) => command);
    } catch (error) {
      this.logger.warn({
        msg: 'device commands not handed out; due again at the next report',
        vehicleId,
        err: error,
      });
      return [];
    }
  }

  /**
   * The vehicle's due commands wait for a device that proves it is the vehicle's: the first time each
   * is held back, a `held` result says why (its record's `reason`; docs/commands.md). Never fails: the
   * report is accepted already, and the next one tries again.
   */
  async hold(vehicleId: number, reason: string): Promise<void> {
    const mark = this.due.markOf(vehicleId);
    if (mark === undefined || this.heldMarks.get(vehicleId) === mark) return;
    try {
      await this.dataSource.transaction(async (manager) => {
        const held = await this.queries.hold(manager, vehicleId);
        if (held.length === 0) return;
        const at = new Date().toISOString();
        await this.publishResults(
          held.map((commandId) => ({ commandId, vehicleId, status: 'held', at, reason })),
        );
      });
      this.heldMarks.set(vehicleId, mark);
    } catch (error) {
      this.logger.warn({ msg: 'held device commands not reported; again at the next report', vehicleId, err: error });
    }
  }

  /**
   * Records the device's outcome of a command and publishes `acknowledged` or `failed`, when the
   * command is pending for this vehicle; otherwise (unknown, another vehicle's, finished, expired)
   * does nothing, so that no device answers for another's command. Throws when the outcome could not
   * be recorded and published (nothing is then recorded: the device's retry counts).
   */
  async acknowledge(vehicleId: number, acknowledgement: CommandAcknowledgement, at: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const commandId = await this.queries.acknowledge(manager, acknowledgement.commandId, vehicleId);
      if (commandId === undefined) return;
      const result = { commandId, vehicleId, at: at.toISOString() };
      // Inside the transaction: if the result cannot be published, the command stays pending.
      // A device's text may carry line breaks and NULs, which the result's text field refuses.
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      const text = (acknowledgement.answer ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
      const answer = text ? { answer: text.slice(0, 500) } : {};
      await this.publishResults([
        acknowledgement.status === 'ok'
          ? { ...result, ...answer, status: 'acknowledged' }
          : {
              ...result,
              ...answer,
              status: 'failed',
              reason: acknowledgement.reason ?? DEVICE_FAILURE_REASON,
            },
      ]);
    });
  }

  private async publishResults(results: CommandResultV1[]): Promise<void> {
    await this.publisher.publish(
      Topics.commandResults,
      results.map((payload) => ({ key: String(payload.vehicleId), payload })),
    );
  }
}
