import { CommandResultV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CommandsService } from './commands.service';

/** What telemetry-ingest (device commands) and query-api (odometer, rename) report of commands. */
@Controller()
export class CommandResultsConsumer {
  constructor(private readonly commands: CommandsService) {}

  @ConsumeEvents(Topics.commandResults, { group: ServiceNames.commandGateway, maxBatchSize: 1_000 })
  async onResults(@Payload() batch: EventBatch<CommandResultV1>): Promise<void> {
    await this.commands.applyResults(batch.events.map((event) => event.payload));
  }
}
