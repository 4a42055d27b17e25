import { randomUUID } from 'node:crypto';
import { currentTraceparent, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WebhookDispatcherException, WebhookDispatcherExceptionCode } from '../webhook-dispatcher.exception';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';
import { WebhooksService } from '../webhooks/webhooks.service';
import { DeliveryStatus } from './delivery.entity';
import { DeliveryQueries, DeliveryRow } from './delivery.queries';

/** One attempt as the log shows it. */
export interface AttemptView {
  attempt: number;
  deliveryUuid: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  redirectedTo: string | null;
}

/** One delivery as the log shows it, with its attempts in order. */
export interface DeliveryView {
  id: string;
  webhookId: number;
  alertEventId: string;
  redeliveryOf: string | null;
  configurationId: number;
  alertTypeId: number;
  status: DeliveryStatus;
  outcome: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  nextAttemptAt: Date | null;
  attempts: AttemptView[];
}

/**
 * The delivery log of a webhook (docs/webhooks.md, "The delivery log"): its deliveries newest first
 * with every attempt, and redelivery, which queues a new delivery with the same body (a new
 * `X-Service-Event`; the spec allows an event to arrive again as a separate event). Only the token's
 * company's live webhooks are reachable; any other is 404.
 */
@Injectable()
export class DeliveryLogService {
  constructor(
    @InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksService,
    private readonly queries: DeliveryQueries,
  ) {}

  async page(
    companyId: number,
    webhookId: number,
    slice: Slice,
  ): Promise<{ rows: DeliveryView[]; total: number }> {
    await this.webhooks.rowOf(this.dataSource.manager, companyId, webhookId);
    const { rows: page, total } = await this.queries.page(webhookId, slice);
    return { rows: await this.withAttempts(page), total };
  }

  /** Queues the delivery's body again for the same webhook, due now. */
  async redeliver(companyId: number, webhookId: number, deliveryId: string): Promise<DeliveryView> {
    const created = await this.dataSource.transaction(async (manager) => {
      // Held until commit: a deletion waits, and then cancels this delivery with the others.
      await this.webhooks.rowOf(manager, companyId, webhookId, { lock: true });
      const created = await this.queries.redeliver(manager, {
        id: randomUUID(),
        deliveryId,
        webhookId,
        // A redelivery continues the trace of the request that asked for it.
        traceparent: currentTraceparent(),
      });
      if (!created) {
        throw new WebhookDispatcherException(
          WebhookDispatcherExceptionCode.DeliveryNotFound,
          `Delivery ${deliveryId} of webhook ${webhookId} was not found.`,
        );
      }
      return created;
    });
    // The worker finds it at its next look for due deliveries (a fraction of a second).
    return viewOf(created, []);
  }

  private async withAttempts(rows: readonly DeliveryRow[]): Promise<DeliveryView[]> {
    if (!rows.length) return [];
    const attempts = await this.queries.attemptsOf(rows.map((row) => row.id));
    const byDelivery = new Map<string, AttemptView[]>();
    for (const row of attempts) {
      const list = byDelivery.get(row.delivery_id) ?? [];
      list.push({
        attempt: row.attempt,
        deliveryUuid: row.delivery_uuid,
        startedAt: row.started_at,
        durationMs: row.duration_ms,
        statusCode: row.status_code,
        error: row.error,
        responseExcerpt: row.response_excerpt,
        redirectedTo: row.redirected_to,
      });
      byDelivery.set(row.delivery_id, list);
    }
    return rows.map((row) => viewOf(row, byDelivery.get(row.id) ?? []));
  }
}

function viewOf(row: DeliveryRow, attempts: AttemptView[]): DeliveryView {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    alertEventId: row.alert_event_id,
    redeliveryOf: row.redelivery_of,
    configurationId: row.configuration_id,
    alertTypeId: row.alert_type_id,
    status: row.status,
    outcome: row.outcome,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    nextAttemptAt: row.next_attempt_at,
    attempts,
  };
}
