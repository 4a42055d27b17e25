import { AlertFiredV1, CommandStatusChangedV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { LiveQueries } from './live.queries';

/**
 * Keeps what other services announce for the live channels (docs/stream.md): the alerts alert-engine
 * fired (stream and alert feed) and the command status changes command-gateway made (stream).
 * Positions need nothing here: the position projection's own rows are the stream's.
 */
@Controller()
export class LiveConsumer {
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

  @ConsumeEvents(Topics.commandStatusChanges, { group: ServiceNames.queryApi, maxBatchSize: 500 })
  async onCommandStatusChanges(@Payload() batch: EventBatch<CommandStatusChangedV1>): Promise<void> {
    await this.dataSource.transaction((manager) =>
      this.queries.keepCommandChanges(
        manager,
        batch.events.map((event) => event.payload),
      ),
    );
  }
}
