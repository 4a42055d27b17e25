import { MonthlyPartitions, PartitionChanges } from '@fleet/platform';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ALERT_ENGINE_CONFIG, AlertEngineConfig } from '../alert-engine.config';
import { ALERTS_SCHEMA } from '../alert-engine.schema';

/**
 * Keeps the monthly partitions of alert records ahead of time and drops the ones past retention
 * (`ALERT_RECORDS_RETENTION_DAYS`), at start and every hour, as query-api does for position history.
 */
@Injectable()
export class RecordPartitions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly partitions: MonthlyPartitions;

  constructor(
    @InjectDataSource(ALERTS_SCHEMA) dataSource: DataSource,
    @Inject(ALERT_ENGINE_CONFIG) config: AlertEngineConfig,
  ) {
    this.partitions = new MonthlyPartitions(dataSource, {
      schema: ALERTS_SCHEMA,
      table: 'records',
      timeColumn: 'utc_time',
      retentionDays: config.records.retentionDays,
      monthsAhead: config.records.partitionMonthsAhead,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.partitions.start();
  }

  onApplicationShutdown(): void {
    this.partitions.stop();
  }

  maintain(now = new Date()): Promise<PartitionChanges> {
    return this.partitions.maintain(now);
  }
}
