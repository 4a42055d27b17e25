import { PositionReportedV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PositionProjection } from './position-projection';

@Controller()
export class PositionsConsumer {
  constructor(private readonly projection: PositionProjection) {}

  @ConsumeEvents(Topics.positions, { group: ServiceNames.queryApi, maxBatchSize: 1_000 })
  async onPositions(@Payload() batch: EventBatch<PositionReportedV1>): Promise<void> {
    await this.projection.apply(batch.events.map((event) => event.payload));
  }
}
