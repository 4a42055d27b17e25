import { alertTypeById } from '@fleet/contracts';
import { IdInput } from '@fleet/platform';
import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { AttemptView, DeliveryView } from '../delivery-log.service';

export class WebhookParam {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Webhook id' })
  @IdInput()
  id!: number;
}

export class DeliveryParams extends WebhookParam {
  @ApiProperty({ format: 'uuid', description: 'Delivery id (the `X-Service-Event` header of its attempts)' })
  @IsUUID()
  deliveryId!: string;
}

export class DeliveryAttemptItem {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 3 })
  attempt!: number;

  @ApiProperty({ format: 'uuid', description: 'The `X-Service-Delivery` header of this attempt' })
  deliveryId!: string;

  @ApiProperty({ format: 'date-time' })
  startedAt!: string;

  @ApiProperty({
    type: 'integer',
    description: 'Milliseconds until the answer was complete, or the attempt failed',
  })
  durationMs!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The answer's HTTP status (of the GET, after a followed 300–303); null when none came",
  })
  statusCode!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Why the attempt failed; null when it succeeded',
  })
  error!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: "The first 1 KiB of the answer's body" })
  response!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Where a 300–303 answer sent the attempt' })
  redirectedTo!: string | null;
}

/** One delivery of the log (docs/webhooks.md, "The delivery log"). */
export class DeliveryItem {
  @ApiProperty({
    format: 'uuid',
    description: 'Delivery id: the `X-Service-Event` header, the same on every attempt',
  })
  id!: string;

  @ApiProperty({ format: 'uuid', description: 'The fired alert it delivers' })
  alertEventId!: string;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'The delivery it sends again (redelivery), if it is one',
  })
  redeliveryOf!: string | null;

  @ApiProperty({ type: 'integer', description: 'The alert configuration that fired' })
  alertId!: number;

  @ApiProperty({ type: 'integer' })
  alertTypeId!: number;

  @ApiProperty({ description: "The payload's `AlertType`", example: 'Geofence' })
  alertType!: string;

  @ApiProperty({
    enum: ['pending', 'delivered', 'failed', 'dropped', 'cancelled'],
    description:
      '`pending`: an attempt is due or running; `delivered`: an attempt got a 2xx; `failed`: three attempts ' +
      'failed; `dropped`: never attempted (the host did not resolve or only to refused addresses, the ' +
      'webhook was inactive or its company suspended); `cancelled`: the webhook was deleted',
  })
  status!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why it was dropped, failed or cancelled' })
  outcome!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  finishedAt!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When a pending one is due',
  })
  nextAttemptAt!: string | null;

  @ApiProperty({ type: DeliveryAttemptItem, isArray: true })
  attempts!: DeliveryAttemptItem[];
}

export function toDeliveryItem(view: DeliveryView): DeliveryItem {
  return {
    id: view.id,
    alertEventId: view.alertEventId,
    redeliveryOf: view.redeliveryOf,
    alertId: view.configurationId,
    alertTypeId: view.alertTypeId,
    alertType: alertTypeById(view.alertTypeId)?.webhookLabel ?? String(view.alertTypeId),
    status: view.status,
    outcome: view.outcome,
    createdAt: view.createdAt.toISOString(),
    finishedAt: view.finishedAt?.toISOString() ?? null,
    nextAttemptAt: view.nextAttemptAt?.toISOString() ?? null,
    attempts: view.attempts.map(toAttemptItem),
  };
}

function toAttemptItem(attempt: AttemptView): DeliveryAttemptItem {
  return {
    attempt: attempt.attempt,
    deliveryId: attempt.deliveryUuid,
    startedAt: attempt.startedAt.toISOString(),
    durationMs: attempt.durationMs,
    statusCode: attempt.statusCode,
    error: attempt.error,
    response: attempt.responseExcerpt,
    redirectedTo: attempt.redirectedTo,
  };
}
