import { CommandRequestedV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeviceCommandsService } from './device-commands.service';

/** Device commands from command-gateway, kept until their devices take them. */
@Controller()
export class CommandRequestsConsumer {
  constructor(private readonly commands: DeviceCommandsService) {}

  @ConsumeEvents(Topics.commandsRequested, { group: ServiceNames.telemetryIngest })
  async onCommandsRequested(@Payload() batch: EventBatch<CommandRequestedV1>): Promise<void> {
    await this.commands.record(batch.events.map((event) => event.payload));
  }
}
