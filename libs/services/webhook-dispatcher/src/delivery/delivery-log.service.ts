import { randomUUID } from 'node:crypto';
import { currentTraceparent, pagedRows, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WebhookDispatcherException, WebhookDispatcherExceptionCode } from '../webhook-dispatcher.exception';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema';
import { WebhooksService } from '../webhooks/webhooks.service';
import { DeliveryStatus } from './delivery.entity';

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

interface DeliveryRow {
  id: string;
  webhook_id: number;
  alert_event_id: string;
  redelivery_of: string | null;
  configuration_id: number;
  alert_type_id: number;
  status: DeliveryStatus;
  outcome: string | null;
  created_at: Date;
  finished_at: Date | null;
  next_attempt_at: Date | null;
}

const DELIVERY_COLUMNS = `id, webhook_id, alert_event_id, redelivery_of, configuration_id, alert_type_id, status,
  outcome, created_at, finished_at, next_attempt_at`;

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
  ) {}

  async page(
    companyId: number,
    webhookId: number,
    slice: Slice,
  ): Promise<{ rows: DeliveryView[]; total: number }> {
    await this.webhooks.rowOf(this.dataSource.manager, companyId, webhookId);
    const rows: (DeliveryRow & { in_page: boolean | null; total: string })[] = await this.dataSource.query(
      `SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM webhooks.deliveries WHERE webhook_id = $1) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, ${DELIVERY_COLUMNS} FROM webhooks.deliveries WHERE webhook_id = $1
            ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3) paged ON true
        ORDER BY paged.created_at DESC, paged.id DESC`,
      [webhookId, slice.limit, slice.offset],
    );
    const { rows: page, total } = pagedRows(rows);
    return { rows: await this.withAttempts(page), total };
  }

  /** Queues the delivery's body again for the same webhook, due now. */
  async redeliver(companyId: number, webhookId: number, deliveryId: string): Promise<DeliveryView> {
    const created = await this.dataSource.transaction(async (manager) => {
      // Held until commit: a deletion waits, and then cancels this delivery with the others.
      await this.webhooks.rowOf(manager, companyId, webhookId, { lock: true });
      const rows: DeliveryRow[] = await manager.query(
        `INSERT INTO webhooks.deliveries
           (id, webhook_id, alert_event_id, redelivery_of, configuration_id, alert_type_id, body, traceparent, status, next_attempt_at)
         SELECT $1, webhook_id, alert_event_id, id, configuration_id, alert_type_id, body, $4, 'pending', now()
           FROM webhooks.deliveries WHERE id = $2 AND webhook_id = $3
         RETURNING ${DELIVERY_COLUMNS}`,
        // A redelivery continues the trace of the request that asked for it.
        [randomUUID(), deliveryId, webhookId, currentTraceparent()],
      );
      if (!rows.length) {
        throw new WebhookDispatcherException(
          WebhookDispatcherExceptionCode.DeliveryNotFound,
          `Delivery ${deliveryId} of webhook ${webhookId} was not found.`,
        );
      }
      return rows[0];
    });
    // The worker finds it at its next look for due deliveries (a fraction of a second).
    return viewOf(created, []);
  }

  private async withAttempts(rows: readonly DeliveryRow[]): Promise<DeliveryView[]> {
    if (!rows.length) return [];
    const attempts: {
      delivery_id: string;
      attempt: number;
      delivery_uuid: string;
      started_at: Date;
      duration_ms: number;
      status_code: number | null;
      error: string | null;
      response_excerpt: string | null;
      redirected_to: string | null;
    }[] = await this.dataSource.query(
      `SELECT * FROM webhooks.delivery_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt`,
      [rows.map((row) => row.id)],
    );
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
