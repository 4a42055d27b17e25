import { AlertFiredV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeliveryPlanner } from './delivery-planner';

@Controller()
export class FiredAlertsConsumer {
  constructor(private readonly planner: DeliveryPlanner) {}

  @ConsumeEvents(Topics.alertsFired, { group: ServiceNames.webhookDispatcher, maxBatchSize: 1_000 })
  async onFiredAlerts(@Payload() batch: EventBatch<AlertFiredV1>): Promise<void> {
    // Each alert with the trace its event carries: its deliveries continue that trace.
    await this.planner.apply(
      batch.events.map((event) => event.payload),
      batch.events.map((event) => event.headers.traceparent ?? null),
    );
  }
}
