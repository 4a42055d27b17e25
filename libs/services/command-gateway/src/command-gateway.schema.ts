import { ServiceSchema } from '@fleet/platform';
import { Command, IdempotencyKey } from './commands/command.entity';
import { COMMANDS_SCHEMA } from './command-gateway.schema.constants';
import { CreateCommands1764800000000 } from './migrations/1764800000000-create-commands';
import { CommandDeviceAnswers1765100000000 } from './migrations/1765100000000-command-device-answers';
import { CommandRetention1765400000000 } from './migrations/1765400000000-command-retention';
import { CommandVehicle } from './vehicles/command-vehicle.entity';

/**
 * Tables owned by command-gateway: the command log with each command's status, the idempotency keys
 * of sending routes, its projection of the vehicle registry, and the outbox of requested commands.
 */
export const commandsSchema: ServiceSchema = {
  schema: COMMANDS_SCHEMA,
  entities: [Command, IdempotencyKey, CommandVehicle],
  migrations: [CreateCommands1764800000000, CommandDeviceAnswers1765100000000, CommandRetention1765400000000],
  outbox: true,
};
