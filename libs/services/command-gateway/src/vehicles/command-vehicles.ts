import { ServiceNames, Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import {
  applySnapshotRows,
  CompanyDirectory,
  ConsumeEvents,
  EventBatch,
  Principal,
  readWhenProjected,
  SnapshotTable,
} from '@fleet/platform';
import { Controller, Injectable } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CommandGatewayException, CommandGatewayExceptionCode } from '../command-gateway.exception';
import { COMMANDS_SCHEMA } from '../command-gateway.schema.constants';
import { CommandVehicleQueries } from './command-vehicles.queries';

const commandVehicles: SnapshotTable<VehicleSnapshotV1> = {
  table: 'commands.vehicles',
  key: 'vehicle_id',
  rowOf: (snapshot) => ({
    vehicle_id: snapshot.vehicleId,
    company_ids: snapshot.companyIds,
    version: snapshot.version,
  }),
  isDeleted: (snapshot) => snapshot.deleted,
};

/** How long a route waits for a vehicle the projection has never seen (one registered a moment ago). */
const UNKNOWN_VEHICLE_WAIT_MS = 2_000;

/**
 * Which vehicles a token may command. A token reaches the vehicles mapped to its company or a company
 * below it, narrowed by its `Vehicles` allowlist; anything else, and an unknown vehicle, is 404 (as
 * on query-api's vehicle routes).
 */
@Injectable()
export class CommandVehicles {
  private readonly queries: CommandVehicleQueries;

  constructor(
    @InjectDataSource(COMMANDS_SCHEMA) private readonly dataSource: DataSource,
    private readonly companies: CompanyDirectory,
  ) {
    this.queries = new CommandVehicleQueries(dataSource);
  }

  /** Applies snapshots in order; an older snapshot than the stored row changes nothing (redelivery). */
  async apply(snapshots: readonly VehicleSnapshotV1[]): Promise<void> {
    await this.dataSource.transaction((manager) => applySnapshotRows(manager, commandVehicles, snapshots));
  }

  /** `vehicleId` when the token may command it; 404 otherwise. */
  async reachable(principal: Principal, vehicleId: number): Promise<number> {
    const companyIds = await this.companiesOfVehicle(vehicleId);
    const allowed = principal.vehicles === undefined || principal.vehicles.includes(vehicleId);
    const reachable = this.companies.reachableFrom(principal.companyId);
    if (!companyIds || !allowed || !companyIds.some((id) => reachable.includes(id))) {
      throw new CommandGatewayException(
        CommandGatewayExceptionCode.VehicleNotFound,
        `Vehicle ${vehicleId} was not found.`,
      );
    }
    return vehicleId;
  }

  /**
   * The vehicle's companies. A vehicle registered a moment ago reaches this projection through
   * query-api's outbox and the snapshot topic a little later; a client that registers one and commands
   * it at once would otherwise get a 404 for a vehicle it has just been given, so an id the projection
   * has never held is waited for, briefly.
   */
  private async companiesOfVehicle(vehicleId: number): Promise<number[] | undefined> {
    return readWhenProjected(
      () => this.queries.companiesOf(vehicleId),
      (companyIds) => companyIds !== undefined,
      UNKNOWN_VEHICLE_WAIT_MS,
    );
  }
}

@Controller()
export class VehicleSnapshotsConsumer {
  constructor(private readonly vehicles: CommandVehicles) {}

  @ConsumeEvents(Topics.vehicleSnapshots, { group: ServiceNames.commandGateway })
  async onVehicleSnapshots(@Payload() batch: EventBatch<VehicleSnapshotV1>): Promise<void> {
    await this.vehicles.apply(batch.events.map((event) => event.payload));
  }
}
