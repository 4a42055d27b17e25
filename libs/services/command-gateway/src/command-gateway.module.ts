import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { COMMAND_GATEWAY_CONFIG, CommandGatewayConfig } from './command-gateway.config';
import { commandsSchema } from './command-gateway.schema';
import { CommandExpiry } from './commands/command-expiry';
import { CommandLogRetention } from './commands/command-log-retention';
import { CommandResultsConsumer } from './commands/command-results.consumer';
import { CommandStatusController, VehicleCommandsController } from './commands/commands.controller';
import { CommandsService } from './commands/commands.service';
import { LegacyCommandsController } from './commands/legacy-commands.controller';
import { CommandVehicles, VehicleSnapshotsConsumer } from './vehicles/command-vehicles';

/**
 * Commands to vehicles (docs/commands.md): `commands/` accepts them on the V2 and V1 routes, keeps
 * their log and status, announces them on `commands.requested.v1` and follows `commands.results.v1`;
 * `vehicles/` is the projection of the registry that says who may command which vehicle. Devices get
 * their commands from telemetry-ingest; odometer and rename are applied by query-api.
 */
@Module({})
export class CommandGatewayModule {
  static forRoot(config: CommandGatewayConfig): DynamicModule {
    return {
      module: CommandGatewayModule,
      imports: [DatabaseModule.forService(commandsSchema)],
      controllers: [
        VehicleSnapshotsConsumer,
        CommandResultsConsumer,
        VehicleCommandsController,
        CommandStatusController,
        LegacyCommandsController,
      ],
      providers: [
        { provide: COMMAND_GATEWAY_CONFIG, useValue: config },
        CommandVehicles,
        CommandsService,
        CommandExpiry,
        CommandLogRetention,
      ],
    };
  }
}
