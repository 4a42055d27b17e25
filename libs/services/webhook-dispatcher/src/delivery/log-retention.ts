import { HOUR_MS } from '@fleet/contracts';
import { deleteInBatches, PeriodicTask } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WEBHOOK_DISPATCHER_CONFIG, WebhookDispatcherConfig } from '../webhook-dispatcher.config';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema';

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

  /** Deletes what is past retention, a batch at a time; returns how many deliveries went. */
  async prune(): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      `DELETE FROM webhooks.deliveries WHERE id IN (
         SELECT id FROM webhooks.deliveries WHERE finished_at < now() - make_interval(days => $1) LIMIT $2)`,
      [this.config.logRetentionDays],
    );
  }
}
