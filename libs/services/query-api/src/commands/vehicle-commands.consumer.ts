import { CommandRequestedV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { VehicleCommands } from './vehicle-commands.service';

@Controller()
export class VehicleCommandsConsumer {
  constructor(private readonly commands: VehicleCommands) {}

  @ConsumeEvents(Topics.commandsRequested, { group: ServiceNames.queryApi })
  async onCommands(@Payload() batch: EventBatch<CommandRequestedV1>): Promise<void> {
    await this.commands.applyAll(batch.events.map((event) => event.payload));
  }
}
