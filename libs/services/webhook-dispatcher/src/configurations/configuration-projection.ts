import { AlertConfigurationSnapshotV1, ServiceNames, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller, Injectable } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';
import { ConfigurationQueries, KnownConfiguration } from './configurations.queries';

export type { KnownConfiguration } from './configurations.queries';

/** webhook-dispatcher's projection of alert configurations, fed by alert-engine's snapshots. */
@Injectable()
export class ConfigurationProjection {
  constructor(
    @InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource,
    private readonly queries: ConfigurationQueries,
  ) {}

  async apply(snapshots: readonly AlertConfigurationSnapshotV1[]): Promise<void> {
    await this.dataSource.transaction((manager) => this.queries.apply(manager, snapshots));
  }

  /** The live (not deleted) configurations among `ids`; unknown and deleted ids are absent. */
  liveOf(ids: readonly number[]): Promise<Map<number, KnownConfiguration>> {
    return this.queries.liveOf(ids);
  }

  /** Whether the projection has no row (live or tombstone) for some of `ids`. */
  async anyUnknown(ids: readonly number[]): Promise<boolean> {
    return (await this.queries.countKnown(ids)) < ids.length;
  }
}

@Controller()
export class ConfigurationSnapshotsConsumer {
  constructor(private readonly projection: ConfigurationProjection) {}

  @ConsumeEvents(Topics.alertConfigurationSnapshots, { group: ServiceNames.webhookDispatcher })
  async onConfigurationSnapshots(@Payload() batch: EventBatch<AlertConfigurationSnapshotV1>): Promise<void> {
    await this.projection.apply(batch.events.map((event) => event.payload));
  }
}
