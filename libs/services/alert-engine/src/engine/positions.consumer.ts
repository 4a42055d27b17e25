import { PositionReportedV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AlertEvaluator } from './alert-evaluator';

@Controller()
export class PositionsConsumer {
  constructor(private readonly evaluator: AlertEvaluator) {}

  @ConsumeEvents(Topics.positions, { group: ServiceNames.alertEngine, maxBatchSize: 1_000 })
  async onPositions(@Payload() batch: EventBatch<PositionReportedV1>): Promise<void> {
    await this.evaluator.apply(batch.events.map((event) => event.payload));
  }
}
