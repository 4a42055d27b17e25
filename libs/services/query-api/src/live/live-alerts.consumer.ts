import { AlertFiredV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { LiveQueries } from './live.queries';

/** Keeps the alerts alert-engine fired for the live stream and the alert feed (docs/stream.md). */
@Controller()
export class LiveAlertsConsumer {
  constructor(
    private readonly queries: LiveQueries,
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
  ) {}

  @ConsumeEvents(Topics.alertsFired, { group: ServiceNames.queryApi, maxBatchSize: 500 })
  async onAlertsFired(@Payload() batch: EventBatch<AlertFiredV1>): Promise<void> {
    await this.dataSource.transaction((manager) =>
      this.queries.keepAlerts(
        manager,
        batch.events.map((event) => event.payload),
      ),
    );
  }
}
