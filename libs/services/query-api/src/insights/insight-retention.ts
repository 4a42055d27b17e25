import { HOUR_MS } from '@fleet/contracts';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/**
 * The insights keep what the positions keep: activity quarter hours and driving events older than
 * `POSITIONS_RETENTION_DAYS` are deleted at start and every hour, as the position partitions are
 * dropped. Engine codes are kept (one row per vehicle and code; their first-seen time is history).
 * Every replica may run it: deleting what is already gone changes nothing.
 */
@Injectable()
export class InsightRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InsightRetention.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.prune();
    this.timer = setInterval(() => void this.prune(), HOUR_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async prune(): Promise<void> {
    const days = this.config.positions.retentionDays;
    try {
      await this.dataSource.query(
        `DELETE FROM query.vehicle_activity WHERE quarter < now() - make_interval(days => $1)`,
        [days],
      );
      await this.dataSource.query(
        `DELETE FROM query.driving_events WHERE occurred_at < now() - make_interval(days => $1)`,
        [days],
      );
    } catch (error) {
      // A failed sweep is retried within the hour; it must not take the service down.
      this.logger.warn({ msg: 'pruning insights past retention failed', err: error });
    }
  }
}
