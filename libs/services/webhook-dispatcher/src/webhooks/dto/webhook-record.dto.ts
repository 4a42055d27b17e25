import { utcWithZ } from '@fleet/formats';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { WebhookView } from '../webhooks.service';

/**
 * A webhook as every route answers it (the spec leaves the field list to us; docs/webhooks.md). The
 * secret is not part of it: only the creation answer carries it, in {@link CreatedWebhookRecord}.
 */
@ApiSchema({ name: 'WebhookRecord' })
export class WebhookRecord {
  @ApiProperty({ type: 'integer', example: 7 }) id!: number;

  @ApiProperty({
    description: 'Where alert events are sent: the URL as given, normalised (WHATWG URL `href`)',
    example: 'https://example.com/hooks/alerts',
  })
  url!: string;

  @ApiProperty({ description: 'False: the webhook receives nothing' }) isActive!: boolean;

  @ApiProperty({
    description:
      'True: every deliverable alert of the company and the companies below it; false: linked ones',
  })
  isGlobal!: boolean;

  @ApiProperty({
    type: 'integer',
    isArray: true,
    description: 'Linked alert configurations (deleted ones left out), ascending',
    example: [40, 41],
  })
  alertIds!: number[];

  @ApiProperty({ format: 'date-time', description: 'UTC', example: '2026-04-28T10:00:00Z' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', description: 'UTC', example: '2026-04-28T10:00:00Z' })
  updatedAt!: string;
}

/** The answer of `POST /v2/api/webhooks`: the only one that carries the secret. */
@ApiSchema({ name: 'CreatedWebhookRecord' })
export class CreatedWebhookRecord extends WebhookRecord {
  @ApiProperty({
    description:
      'The HMAC-SHA256 key of `X-Service-Signature`, used as this UTF-8 text (64 hex characters; do not ' +
      'hex-decode it). Shown in this answer only: store it now.',
    example: '3f9a0c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8',
  })
  secret!: string;
}

export const toWebhookRecord = (view: WebhookView): WebhookRecord => ({
  id: view.id,
  url: view.url,
  isActive: view.isActive,
  isGlobal: view.isGlobal,
  alertIds: view.alertIds,
  createdAt: utcWithZ(view.createdAt),
  updatedAt: utcWithZ(view.updatedAt),
});

export const toCreatedWebhookRecord = (view: WebhookView, secret: string): CreatedWebhookRecord => ({
  ...toWebhookRecord(view),
  secret,
});
