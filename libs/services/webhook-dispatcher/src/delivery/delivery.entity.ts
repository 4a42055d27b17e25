import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** Where a delivery stands (docs/webhooks.md, "The delivery log"). */
export type DeliveryStatus =
  /** Waiting for its next attempt (`next_attempt_at`). */
  | 'pending'
  /** An attempt got a 2xx answer. */
  | 'delivered'
  /** Three attempts failed. */
  | 'failed'
  /** Never attempted: the host did not resolve or only to refused addresses, or the webhook or its company could not receive. */
  | 'dropped'
  /** The webhook was deleted while the delivery waited. */
  | 'cancelled';

/**
 * One fired alert on its way to one webhook: the body built once (every attempt sends these bytes),
 * and its schedule. `id` is the stable `X-Service-Event` header; each attempt has its own
 * `X-Service-Delivery` UUID (`delivery_attempts`).
 */
@Entity({ schema: 'webhooks', name: 'deliveries' })
// Partial indexes written by the migration: one delivery per (fired alert, webhook) unless a
// redelivery; pending deliveries by due time; finished ones by age (retention).
@Index('deliveries_alert_webhook_key', { synchronize: false })
@Index('deliveries_due_idx', { synchronize: false })
@Index('deliveries_finished_idx', { synchronize: false })
@Index('deliveries_webhook_idx', { synchronize: false })
@Check(
  'CHK_webhooks_deliveries_status',
  `"status" IN ('pending', 'delivered', 'failed', 'dropped', 'cancelled')`,
)
export class Delivery {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'webhook_id', type: 'integer' })
  webhookId!: number;

  /** `eventId` of the fired alert (`alerts.fired.v1`). */
  @Column({ name: 'alert_event_id', type: 'uuid' })
  alertEventId!: string;

  /** The delivery this one sends again (the redeliver route), if it is one. */
  @Column({ name: 'redelivery_of', type: 'uuid', nullable: true })
  redeliveryOf!: string | null;

  @Column({ name: 'configuration_id', type: 'integer' })
  configurationId!: number;

  @Column({ name: 'alert_type_id', type: 'smallint' })
  alertTypeId!: number;

  /** The exact bytes every attempt sends (UTF-8 JSON). */
  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'text' })
  status!: DeliveryStatus;

  @Column({ type: 'smallint', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  /** A worker holds the delivery until then while it attempts it; after a crash, it is due again. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  /** Why it was dropped, failed or cancelled, in words for the delivery log. */
  @Column({ type: 'text', nullable: true })
  outcome!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** The W3C `traceparent` of the fired alert's consumption: attempts continue that trace. Null with tracing off. */
  @Column({ type: 'text', nullable: true })
  traceparent!: string | null;
}

/** One attempt of a delivery, as the delivery log shows it. */
@Entity({ schema: 'webhooks', name: 'delivery_attempts' })
export class DeliveryAttempt {
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId!: string;

  @ManyToOne(() => Delivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhooks_delivery_attempts_delivery' })
  delivery?: Delivery;

  /** 1, 2 or 3. */
  @PrimaryColumn({ type: 'smallint' })
  attempt!: number;

  /** The `X-Service-Delivery` header of this attempt. */
  @Column({ name: 'delivery_uuid', type: 'uuid' })
  deliveryUuid!: string;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  /** When the worker recorded the outcome (database clock); null before migration 1766000000000. */
  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt!: Date | null;

  /** After a failure with another attempt to come: when that attempt was due (`settled_at` + the delay). */
  @Column({ name: 'retry_at', type: 'timestamptz', nullable: true })
  retryAt!: Date | null;

  /** The answer's status (the GET's after a followed redirect); null when none came. */
  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** The first 1 KiB of the answer's body, as text. */
  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt!: string | null;

  /** The `Location` a 300–303 answer sent the attempt to. */
  @Column({ name: 'redirected_to', type: 'text', nullable: true })
  redirectedTo!: string | null;
}
