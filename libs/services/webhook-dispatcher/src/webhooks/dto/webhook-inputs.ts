import { BooleanInput, IdInput, MAX_ID } from '@fleet/platform';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MAX_LINKED_CONFIGURATIONS, MAX_URL_LENGTH } from '../webhook-rules';

/**
 * The inputs of the webhook routes. Each may come as a query parameter (the spec's convention) or in
 * a JSON, form (`application/x-www-form-urlencoded`) or multipart body; the controller takes the
 * query's value of a field when both give one. Types are checked here, the rules in webhook-rules.ts.
 */

/** Decimal notation, as the platform's `NumberInput` reads it (`0x10`, ` 1`, `1_000` stay text). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A list of ids: a JSON array, a parameter repeated (`alertIds=1&alertIds=2`), comma-separated text
 * (`alertIds=1,2`) or both mixed, and a single number. Text items that are not numbers stay text
 * and fail the integer check naming the field. An empty value counts as missing, as every empty
 * value does (docs/api-conventions.md).
 */
export const IdListInput = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (value === '') return undefined;
      if (typeof value !== 'string' && typeof value !== 'number' && !Array.isArray(value)) return value;
      const items: unknown[] = Array.isArray(value) ? value : [value];
      return items
        .flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]))
        .map((item) => (typeof item === 'string' && DECIMAL.test(item) ? Number(item) : item));
    }),
    IsArray(),
    IsInt({ each: true }),
    Min(1, { each: true }),
    Max(MAX_ID, { each: true }),
  );

/** Text whose empty value counts as missing. */
const TextInput = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value)),
    IsOptional(),
    IsString(),
  );

const URL_DOC =
  `An absolute \`http\` or \`https\` URL with a host, at most ${MAX_URL_LENGTH} characters, without a user ` +
  'name or password. Stored (and answered) in its normalised form (WHATWG URL `href`).';

const ALERT_IDS_DOC =
  'Alert configuration ids of the token’s company (`GET /v2/api/companies/{id}/alerts`), of types 1, 2, ' +
  `5, 8, 9, 10 or 17; at most ${MAX_LINKED_CONFIGURATIONS} once duplicates are removed. As a query ` +
  'parameter repeated (`alertIds=1&alertIds=2`) or comma-separated (`alertIds=1,2`).';

/** `POST /v2/api/webhooks`. */
export class NewWebhookInput {
  @ApiPropertyOptional({
    description: `Required. ${URL_DOC}`,
    maxLength: MAX_URL_LENGTH,
    example: 'https://example.com/hooks/alerts',
  })
  @TextInput()
  url?: string;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    minimum: 1,
    description: `Required (at least one) unless \`isGlobal\` is true. ${ALERT_IDS_DOC}`,
    example: [40, 41],
  })
  @IsOptional()
  @IdListInput()
  alertIds?: number[];

  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description:
      'True: the webhook receives every deliverable alert of the company and of the companies below it ' +
      '(docs/webhooks.md). Cannot be changed later.',
  })
  @IsOptional()
  @BooleanInput()
  isGlobal?: boolean;
}

/** `PUT /v2/api/webhooks/{id}`: any of the fields; those left out keep their value. */
export class WebhookChangeInput {
  @ApiPropertyOptional({ description: URL_DOC, maxLength: MAX_URL_LENGTH })
  @TextInput()
  url?: string;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'False: the webhook receives nothing until set true again',
  })
  @IsOptional()
  @BooleanInput()
  isActive?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    minimum: 1,
    description: `Replaces the linked configurations; an alert-scoped webhook keeps at least one. ${ALERT_IDS_DOC}`,
  })
  @IsOptional()
  @IdListInput()
  alertIds?: number[];

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Cannot be changed: accepted when equal to the webhook’s, 422 otherwise',
  })
  @IsOptional()
  @BooleanInput()
  isGlobal?: boolean;
}

/** `POST /v2/api/webhooks/{id}/link-alert`. */
export class LinkAlertInput {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      'Required: an alert configuration id of the token’s company, of type 1, 2, 5, 8, 9, 10 or 17. ' +
      'Linking one already linked changes nothing.',
    example: 42,
  })
  @IsOptional()
  @IdInput()
  alertId?: number;
}

export class WebhookParam {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Webhook id' })
  @IdInput()
  id!: number;
}
