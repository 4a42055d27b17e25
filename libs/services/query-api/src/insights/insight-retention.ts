import { HOUR_MS } from '@fleet/contracts';
import { deleteInBatches, PeriodicTask } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/**
 * The insights keep what the positions keep: activity quarter and resting hours and driving events older than
 * `POSITIONS_RETENTION_DAYS` are deleted at start and every hour, as the position partitions are
 * dropped, a batch at a time. Engine codes are kept (one row per vehicle and code; their first-seen
 * time is history). Every replica may run it: deleting what is already gone changes nothing.
 */
@Injectable()
export class InsightRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sweep: PeriodicTask;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {
    this.sweep = new PeriodicTask(
      'pruning insights past retention',
      HOUR_MS,
      () => this.prune(),
      new Logger(InsightRetention.name),
    );
  }

  onApplicationBootstrap(): void {
    this.sweep.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweep.stop();
  }

  /** Deletes what is past retention; how many rows went from each table. */
  async prune(): Promise<{ activity: number; restHours: number; drivingEvents: number }> {
    const days = this.config.positions.retentionDays;
    return {
      activity: await deleteInBatches(
        this.dataSource,
        `DELETE FROM query.vehicle_activity WHERE (vehicle_id, quarter) IN (
           SELECT vehicle_id, quarter FROM query.vehicle_activity
            WHERE quarter < now() - make_interval(days => $1) LIMIT $2)`,
        [days],
      ),
      restHours: await deleteInBatches(
        this.dataSource,
        `DELETE FROM query.vehicle_rest_hours WHERE (vehicle_id, hour) IN (
           SELECT vehicle_id, hour FROM query.vehicle_rest_hours
            WHERE hour < now() - make_interval(days => $1) LIMIT $2)`,
        [days],
      ),
      drivingEvents: await deleteInBatches(
        this.dataSource,
        `DELETE FROM query.driving_events WHERE (vehicle_id, occurred_at, kind) IN (
           SELECT vehicle_id, occurred_at, kind FROM query.driving_events
            WHERE occurred_at < now() - make_interval(days => $1) LIMIT $2)`,
        [days],
      ),
    };
  }
}
