import { AlertFiredV1 } from '@fleet/contracts';
import { deleteInBatches, pagedRows, PagedRow, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';
import { DeliveryStatus } from './delivery.entity';

/** A delivery about to be stored: one fired alert for one webhook. */
export interface PlannedDelivery {
  id: string;
  webhookId: number;
  alert: AlertFiredV1;
  body: string;
  traceparent: string | null;
}

/** A delivery claimed for an attempt, with what the attempt needs of it. */
export interface ClaimedDelivery {
  id: string;
  webhookId: number;
  body: string;
  /** Attempts recorded before this one. */
  attempts: number;
  /** When the delivery was planned: the start of its delivery latency. */
  createdAt: Date;
  /** The trace the delivery was planned in: its attempts continue it. */
  traceparent: string | null;
}

/** One attempt as its log row records it. */
export interface RecordedAttempt {
  number: number;
  deliveryUuid: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  redirectedTo: string | null;
}

/** What one attempt (or the decision not to make one) leaves behind. */
export interface DeliveryResult {
  deliveryId: string;
  status: DeliveryStatus;
  /** Attempts recorded after this result. */
  attempts: number;
  /** For a failed attempt with another to come: milliseconds after now. */
  retryInMs?: number;
  outcome: string | null;
  attempt?: RecordedAttempt;
}

/** A result that comes with an attempt to log. */
export type AttemptedResult = DeliveryResult & { attempt: RecordedAttempt };

/** A delivery as the log shows it, without its attempts. */
export interface DeliveryRow {
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

/** One logged attempt of a delivery. */
export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  delivery_uuid: string;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  redirected_to: string | null;
}

/** A redelivery about to be queued: a new delivery `id` with the body of `deliveryId`. */
export interface Redelivery {
  id: string;
  deliveryId: string;
  webhookId: number;
  traceparent: string | null;
}

const DELIVERY_COLUMNS = `id, webhook_id, alert_event_id, redelivery_of, configuration_id, alert_type_id, status,
  outcome, created_at, finished_at, next_attempt_at`;

/**
 * The SQL statements of deliveries (`webhooks.deliveries`) and their attempts
 * (`webhooks.delivery_attempts`): planning, claiming and recording attempts (the worker's statements
 * are benchmarked: docs/performance.md), the delivery log, redelivery and retention. Statements that
 * run in the caller's transaction take its `manager`. UPDATE ... RETURNING is wrapped in a CTE where
 * rows are wanted: TypeORM's query() answers a bare one as [rows, count].
 */
@Injectable()
export class DeliveryQueries {
  constructor(@InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource) {}

  /**
   * Stores the deliveries, pending and due now; those already planned for the same alert and webhook
   * are skipped (by a unique index). Answers how many were stored.
   */
  async insertPlanned(manager: EntityManager, planned: readonly PlannedDelivery[]): Promise<number> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO webhooks.deliveries
         (id, webhook_id, alert_event_id, configuration_id, alert_type_id, body, traceparent, status, next_attempt_at)
       SELECT id, webhook_id, alert_event_id, configuration_id, alert_type_id, body, traceparent, 'pending', now()
         FROM unnest($1::uuid[], $2::int[], $3::uuid[], $4::int[], $5::smallint[], $6::text[], $7::text[])
           AS p(id, webhook_id, alert_event_id, configuration_id, alert_type_id, body, traceparent)
       ON CONFLICT (alert_event_id, webhook_id) WHERE redelivery_of IS NULL DO NOTHING
       RETURNING id`,
      [
        planned.map((delivery) => delivery.id),
        planned.map((delivery) => delivery.webhookId),
        planned.map((delivery) => delivery.alert.eventId),
        planned.map((delivery) => delivery.alert.configurationId),
        planned.map((delivery) => delivery.alert.alertTypeId),
        planned.map((delivery) => delivery.body),
        planned.map((delivery) => delivery.traceparent),
      ],
    );
    return inserted.length;
  }

  /**
   * Claims up to `limit` due deliveries, oldest due first, except those of `excludedWebhookIds`, and
   * holds them with a lease of `leaseSeconds`. Rows another process is claiming are skipped, not waited for.
   */
  async claimDue(
    limit: number,
    excludedWebhookIds: readonly number[],
    leaseSeconds: number,
  ): Promise<ClaimedDelivery[]> {
    const rows: {
      id: string;
      webhook_id: number;
      body: string;
      attempts: number;
      created_at: Date;
      traceparent: string | null;
    }[] = await this.dataSource.query(
      `WITH due AS (
           SELECT id FROM webhooks.deliveries
            WHERE status = 'pending' AND next_attempt_at <= now()
              AND (lease_until IS NULL OR lease_until < now())
              AND webhook_id <> ALL($2::int[])
            ORDER BY next_attempt_at
            LIMIT $1
            FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE webhooks.deliveries d SET lease_until = now() + make_interval(secs => $3)
             FROM due WHERE d.id = due.id
           RETURNING d.id, d.webhook_id, d.body, d.attempts, d.created_at, d.traceparent)
         -- A SELECT, so that the driver answers rows (an UPDATE answers [rows, count]).
         SELECT * FROM claimed`,
      [limit, excludedWebhookIds, leaseSeconds],
    );
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      body: row.body,
      attempts: row.attempts,
      createdAt: new Date(row.created_at),
      traceparent: row.traceparent,
    }));
  }

  /** Ends the lease of the pending deliveries `ids`: due again at once, for any process. */
  async releaseLeases(ids: readonly string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhooks.deliveries SET lease_until = NULL WHERE id = ANY($1::uuid[]) AND status = 'pending'`,
      [ids],
    );
  }

  /** Appends the attempts to their deliveries' logs; one already logged (a duplicate attempt) is kept. */
  async appendAttempts(manager: EntityManager, results: readonly AttemptedResult[]): Promise<void> {
    await manager.query(
      `INSERT INTO webhooks.delivery_attempts
         (delivery_id, attempt, delivery_uuid, started_at, duration_ms, status_code, error, response_excerpt, redirected_to)
       SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::uuid[], $4::timestamptz[], $5::int[], $6::smallint[],
                            $7::text[], $8::text[], $9::text[])
       ON CONFLICT (delivery_id, attempt) DO NOTHING`,
      [
        results.map((result) => result.deliveryId),
        results.map((result) => result.attempt.number),
        results.map((result) => result.attempt.deliveryUuid),
        results.map((result) => result.attempt.startedAt),
        results.map((result) => result.attempt.durationMs),
        results.map((result) => result.attempt.statusCode),
        results.map((result) => result.attempt.error),
        results.map((result) => result.attempt.responseExcerpt),
        results.map((result) => result.attempt.redirectedTo),
      ],
    );
  }

  /**
   * Moves each delivery on to its result's status, lease ended; one no longer pending (cancelled
   * meanwhile) is left as it is.
   */
  async moveOn(manager: EntityManager, results: readonly DeliveryResult[]): Promise<void> {
    // The next attempt's time is the database's: replicas compare due times against one clock. One
    // statement time is the base of both the schedule and the attempt's `settled_at`, so the log shows
    // the delay exactly as applied.
    await manager.query(
      `WITH moved AS (
         UPDATE webhooks.deliveries d
            SET status = r.status, attempts = r.attempts, outcome = r.outcome, lease_until = NULL,
                next_attempt_at = CASE WHEN r.retry_ms IS NULL THEN NULL
                                       ELSE statement_timestamp() + make_interval(secs => r.retry_ms / 1000.0) END,
                finished_at = CASE WHEN r.status = 'pending' THEN NULL ELSE statement_timestamp() END
           FROM unnest($1::uuid[], $2::text[], $3::smallint[], $4::int[], $5::text[], $6::boolean[])
             AS r(id, status, attempts, retry_ms, outcome, attempted)
          WHERE d.id = r.id AND d.status = 'pending'
          RETURNING d.id, d.attempts, d.next_attempt_at, r.attempted)
       UPDATE webhooks.delivery_attempts a
          SET settled_at = statement_timestamp(), retry_at = moved.next_attempt_at
         FROM moved
        WHERE moved.attempted AND a.delivery_id = moved.id AND a.attempt = moved.attempts`,
      [
        results.map((result) => result.deliveryId),
        results.map((result) => result.status),
        results.map((result) => result.attempts),
        results.map((result) => result.retryInMs ?? null),
        results.map((result) => result.outcome),
        results.map((result) => result.attempt !== undefined),
      ],
    );
  }

  /** Cancels the webhook's pending deliveries (the webhook was deleted). */
  async cancelPendingOf(manager: EntityManager, webhookId: number): Promise<void> {
    await manager.query(
      `UPDATE webhooks.deliveries
       SET status = 'cancelled', outcome = 'webhook deleted', finished_at = now(), next_attempt_at = NULL
       WHERE webhook_id = $1 AND status = 'pending'`,
      [webhookId],
    );
  }

  /** A page of the webhook's deliveries, newest first, and how many it has. */
  async page(webhookId: number, slice: Slice): Promise<{ rows: DeliveryRow[]; total: number }> {
    const rows: PagedRow<DeliveryRow & { total: string }>[] = await this.dataSource.query(
      `SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM webhooks.deliveries WHERE webhook_id = $1) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, ${DELIVERY_COLUMNS} FROM webhooks.deliveries WHERE webhook_id = $1
            ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3) paged ON true
        ORDER BY paged.created_at DESC, paged.id DESC`,
      [webhookId, slice.limit, slice.offset],
    );
    return pagedRows(rows);
  }

  /** The attempts of `deliveryIds`, by delivery and in order. */
  attemptsOf(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    return this.dataSource.query(
      `SELECT * FROM webhooks.delivery_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt`,
      [deliveryIds],
    );
  }

  /**
   * Queues the body of the webhook's delivery `deliveryId` again as a new delivery, pending and due
   * now; the new delivery, or undefined when the webhook has no such delivery.
   */
  async redeliver(manager: EntityManager, redelivery: Redelivery): Promise<DeliveryRow | undefined> {
    const rows: DeliveryRow[] = await manager.query(
      `INSERT INTO webhooks.deliveries
         (id, webhook_id, alert_event_id, redelivery_of, configuration_id, alert_type_id, body, traceparent, status, next_attempt_at)
       SELECT $1, webhook_id, alert_event_id, id, configuration_id, alert_type_id, body, $4, 'pending', now()
         FROM webhooks.deliveries WHERE id = $2 AND webhook_id = $3
       RETURNING ${DELIVERY_COLUMNS}`,
      [redelivery.id, redelivery.deliveryId, redelivery.webhookId, redelivery.traceparent],
    );
    return rows[0];
  }

  /**
   * Deletes deliveries (and, by cascade, their attempts) that finished more than `retentionDays` ago,
   * a batch at a time; pending ones are never deleted. Answers how many deliveries went.
   */
  pruneFinished(retentionDays: number): Promise<number> {
    return deleteInBatches(
      this.dataSource,
      `DELETE FROM webhooks.deliveries WHERE id IN (
         SELECT id FROM webhooks.deliveries WHERE finished_at < now() - make_interval(days => $1) LIMIT $2)`,
      [retentionDays],
    );
  }
}
