import { MonthlyPartitions, PartitionChanges } from '@fleet/platform';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/**
 * Keeps the monthly partitions of position history ahead of time and drops the ones past retention
 * (`POSITIONS_RETENTION_DAYS`), at start and every hour, with the platform's {@link MonthlyPartitions}.
 */
@Injectable()
export class PositionPartitions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly partitions: MonthlyPartitions;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) dataSource: DataSource,
    @Inject(QUERY_API_CONFIG) config: QueryApiConfig,
  ) {
    this.partitions = new MonthlyPartitions(dataSource, {
      schema: QUERY_SCHEMA,
      table: 'positions',
      timeColumn: 'fix_time',
      retentionDays: config.positions.retentionDays,
      monthsAhead: config.positions.partitionMonthsAhead,
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
