import { DatabaseModule } from '@fleet/platform';
import { Module } from '@nestjs/common';
import { commandsSchema } from './command-gateway.schema';

/** Commands to vehicles: accepts them, relays them, records their status. */
@Module({
  imports: [DatabaseModule.forService(commandsSchema)],
})
export class CommandGatewayModule {}
