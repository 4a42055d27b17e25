import { AlertConfigurationSnapshotV1 } from '@fleet/contracts';
import { applySnapshotRows, SnapshotTable } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';

/** A configuration as linking sees it. */
export interface KnownConfiguration {
  configurationId: number;
  companyId: number;
  alertTypeId: number;
}

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

/**
 * The SQL statements of the projection of alert configurations (`webhooks.alert_configurations`):
 * applying snapshots (the statements are platform's applySnapshotRows, given this table) and reading it.
 */
@Injectable()
export class ConfigurationQueries {
  constructor(@InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource) {}

  /** Stores each snapshot unless the row already holds a newer version. */
  apply(manager: EntityManager, snapshots: readonly AlertConfigurationSnapshotV1[]): Promise<void> {
    return applySnapshotRows(manager, projectedConfigurations, snapshots);
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

  /** How many of `ids` have a row, live or a deleted one's tombstone. */
  async countKnown(ids: readonly number[]): Promise<number> {
    const [{ known }]: { known: number }[] = await this.dataSource.query(
      `SELECT count(*)::integer AS known FROM webhooks.alert_configurations WHERE configuration_id = ANY($1::int[])`,
      [ids],
    );
    return known;
  }
}
