import { HOUR_MS } from '@fleet/contracts';
import { PeriodicTask } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { WEBHOOK_DISPATCHER_CONFIG, WebhookDispatcherConfig } from '../webhook-dispatcher.config';
import { DeliveryQueries } from './delivery.queries';

/**
 * Drops deliveries (and, by cascade, their attempts) that finished more than
 * WEBHOOK_LOG_RETENTION_DAYS ago: at start and every hour. Pending deliveries are never dropped.
 * Replicas may run it at the same time; they delete disjoint or already-deleted rows.
 */
@Injectable()
export class DeliveryLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sweep: PeriodicTask;

  constructor(
    @Inject(WEBHOOK_DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    private readonly queries: DeliveryQueries,
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
    return this.queries.pruneFinished(this.config.logRetentionDays);
  }
}
