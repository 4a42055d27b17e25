import { CommandRequestedV1, CommandResultV1, Topics } from '@fleet/contracts';
import { InjectOutbox, Outbox } from '@fleet/platform';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { VehicleRegistry } from '../vehicles/vehicle-registry.service';
import { Vehicle } from '../vehicles/vehicle.entity';
import { odometerOffsetM } from './odometer-offset';
import { VehicleCommandQueries } from './vehicle-commands.queries';

/**
 * How long an applied command's id is remembered. `commands.requested.v1` keeps events for 7 days, so
 * no redelivery can come later; and a command is refused once expired (minutes) in any case.
 */
export const APPLIED_COMMAND_RETENTION_DAYS = 8;

/** The commands that change the registry rather than the device. */
type RegistryCommand = CommandRequestedV1 & { type: 'odometer' | 'name' };

const isRegistryCommand = (command: CommandRequestedV1): command is RegistryCommand =>
  command.type === 'odometer' || command.type === 'name';

type Outcome = { status: 'acknowledged' } | { status: 'failed'; reason: string };

const acknowledged: Outcome = { status: 'acknowledged' };
const failed = (reason: string): Outcome => ({ status: 'failed', reason });

/**
 * Applies `odometer` and `name` commands to the vehicle registry (docs/telemetry.md, "Vehicle
 * commands"). Each command is one transaction: its id is claimed in `applied_commands`, the change is
 * made, and its result is written to the outbox for `commands.results.v1`. A redelivered command finds
 * its id claimed and changes nothing, publishing nothing; a crash before the commit leaves neither the
 * change nor the result, and the redelivery applies it.
 */
@Injectable()
export class VehicleCommands {
  private readonly logger = new Logger(VehicleCommands.name);
  private readonly queries: VehicleCommandQueries;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    @InjectOutbox(QUERY_SCHEMA) private readonly outbox: Outbox,
    private readonly registry: VehicleRegistry,
  ) {
    this.queries = new VehicleCommandQueries(dataSource);
  }

  /** Applies the registry commands among `commands`, in order; device commands are not query-api's. */
  async applyAll(commands: readonly CommandRequestedV1[]): Promise<void> {
    const mine = commands.filter(isRegistryCommand);
    for (const command of mine) await this.apply(command, new Date());
    if (mine.length) await this.queries.forgetAppliedBefore(APPLIED_COMMAND_RETENTION_DAYS);
  }

  private async apply(command: RegistryCommand, now: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // Claimed first: a second delivery of the same command in flight at once waits here for this
      // transaction, then finds the id taken.
      if (!(await this.queries.claim(manager, command))) return;
      const outcome = await this.carryOut(manager, command, now);
      const result: CommandResultV1 = {
        commandId: command.commandId,
        vehicleId: command.vehicleId,
        status: outcome.status,
        at: now.toISOString(),
        ...(outcome.status === 'failed' ? { reason: outcome.reason } : {}),
      };
      await this.outbox.enqueue(manager, Topics.commandResults, [
        { key: String(command.vehicleId), payload: result },
      ]);
      this.logger.log({ msg: 'vehicle command applied', type: command.type, ...result });
    });
  }

  private async carryOut(manager: EntityManager, command: RegistryCommand, now: Date): Promise<Outcome> {
    // command-gateway has expired it already (and ignores results of finished commands): changing
    // the vehicle now would contradict the status its client reads.
    if (Date.parse(command.expiresAt) <= now.getTime())
      return failed(`expired at ${command.expiresAt}, before query-api could apply it`);
    if (!(await this.queries.lockVehicle(manager, command.vehicleId)))
      return failed(`vehicle ${command.vehicleId} does not exist`);
    switch (command.type) {
      case 'name':
        return this.rename(manager, command);
      case 'odometer':
        return this.setOdometer(manager, command);
    }
  }

  /** A new version of the vehicle, announced in its snapshot: every service shows the new name. */
  private async rename(manager: EntityManager, command: RegistryCommand): Promise<Outcome> {
    const name = command.name?.trim() ?? '';
    if (name.length === 0) return failed('name: must be 1 to 100 characters after trimming');
    await this.registry.updateWithin(manager, command.vehicleId, { name });
    return acknowledged;
  }

  /**
   * Sets the offset against the device's latest reading. Locking the last position (after the
   * vehicle, which lockVehicles of PositionProjection never locks when there is one) makes a
   * projection of the same vehicle either finish before the reading is taken or wait and use the new
   * offset.
   */
  private async setOdometer(manager: EntityManager, command: RegistryCommand): Promise<Outcome> {
    const deviceOdometerM = await this.queries.lockDeviceOdometer(manager, command.vehicleId);
    const offset = odometerOffsetM(command.odometerKm!, deviceOdometerM);
    await manager.update(Vehicle, { id: command.vehicleId }, { odometerOffsetM: offset });
    return acknowledged;
  }
}
