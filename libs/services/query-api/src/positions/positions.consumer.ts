import { PositionReportedV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PositionHistory } from './position-history';

@Controller()
export class PositionsConsumer {
  constructor(private readonly history: PositionHistory) {}

  @ConsumeEvents(Topics.positions, { group: ServiceNames.queryApi, maxBatchSize: 1_000 })
  async onPositions(@Payload() batch: EventBatch<PositionReportedV1>): Promise<void> {
    await this.history.append(batch.events.map((event) => event.payload));
  }
}
