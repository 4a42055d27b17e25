import { AlertConfigurationSnapshotV1, ServiceNames, Topics } from '@fleet/contracts';
import { applySnapshotRows, ConsumeEvents, EventBatch, SnapshotTable } from '@fleet/platform';
import { Controller, Injectable } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema';

const projectedConfigurations: SnapshotTable<AlertConfigurationSnapshotV1> = {
  table: 'webhooks.alert_configurations',
  key: 'configuration_id',
  // Deleted configurations stay as tombstones (no isDeleted): a link to one is refused.
  rowOf: (snapshot) => ({
    configuration_id: snapshot.configurationId,
    company_id: snapshot.companyId,
    alert_type_id: snapshot.alertTypeId,
    is_active: snapshot.isActive,
    deleted: snapshot.deleted,
    version: snapshot.version,
  }),
};

/** A configuration as linking sees it. */
export interface KnownConfiguration {
  configurationId: number;
  companyId: number;
  alertTypeId: number;
}

/** webhook-dispatcher's projection of alert configurations, fed by alert-engine's snapshots. */
@Injectable()
export class ConfigurationProjection {
  constructor(@InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource) {}

  async apply(snapshots: readonly AlertConfigurationSnapshotV1[]): Promise<void> {
    await this.dataSource.transaction((manager) =>
      applySnapshotRows(manager, projectedConfigurations, snapshots),
    );
  }

  /** The live (not deleted) configurations among `ids`; unknown and deleted ids are absent. */
  async liveOf(ids: readonly number[]): Promise<Map<number, KnownConfiguration>> {
    const rows: { configuration_id: number; company_id: number; alert_type_id: number }[] =
      await this.dataSource.query(
        `SELECT configuration_id, company_id, alert_type_id FROM webhooks.alert_configurations
         WHERE configuration_id = ANY($1::int[]) AND NOT deleted`,
        [ids],
      );
    return new Map(
      rows.map((row) => [
        row.configuration_id,
        { configurationId: row.configuration_id, companyId: row.company_id, alertTypeId: row.alert_type_id },
      ]),
    );
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
