import { HOUR_MS } from '@fleet/contracts';
import { PeriodicTask } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WEBHOOK_DISPATCHER_CONFIG, WebhookDispatcherConfig } from '../webhook-dispatcher.config';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema';

/** Rows deleted per statement: short transactions, no long lock on a busy table. */
const DELETE_BATCH = 5_000;

/**
 * Drops deliveries (and, by cascade, their attempts) that finished more than
 * WEBHOOK_LOG_RETENTION_DAYS ago: at start and every hour. Pending deliveries are never dropped.
 * Replicas may run it at the same time; they delete disjoint or already-deleted rows.
 */
@Injectable()
export class DeliveryLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sweep: PeriodicTask;

  constructor(
    @InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource,
    @Inject(WEBHOOK_DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
  ) {
    this.sweep = new PeriodicTask(
      'pruning the delivery log',
      HOUR_MS,
      () => this.prune(),
      new Logger(DeliveryLogRetention.name),
    );
  }

  onApplicationBootstrap(): void {
    this.sweep.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweep.stop();
  }

  /** Deletes what is past retention; returns how many deliveries went. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted: unknown[] = await this.dataSource.query(
        `WITH pruned AS (
           DELETE FROM webhooks.deliveries WHERE id IN (
             SELECT id FROM webhooks.deliveries
              WHERE finished_at < now() - make_interval(days => $1) LIMIT $2)
           RETURNING 1)
         SELECT * FROM pruned`,
        [this.config.logRetentionDays, DELETE_BATCH],
      );
      total += deleted.length;
      if (deleted.length < DELETE_BATCH) return total;
    }
  }
}
