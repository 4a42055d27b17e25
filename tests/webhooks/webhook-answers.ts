// What the webhook routes answer, and how a test checks it without the code under test.
import { createDecipheriv } from 'node:crypto';
import { TEST_WEBHOOK_SECRET_KEY } from '@fleet/webhook-dispatcher-service-testing';
import { RecordSchema } from '../telemetry/record-schemas';

/** The webhook record, field by field (issue 18's list), and the creation answer with its secret. */
export const webhookRecord: RecordSchema = {
  id: 'integer',
  url: 'string',
  isActive: 'boolean',
  isGlobal: 'boolean',
  alertIds: 'array',
  createdAt: 'utcZ',
  updatedAt: 'utcZ',
};
export const createdWebhookRecord: RecordSchema = { ...webhookRecord, secret: 'string' };

export interface WebhookAnswer {
  id: number;
  url: string;
  isActive: boolean;
  isGlobal: boolean;
  alertIds: number[];
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

/** The creation answer as every later answer must show it: the same, without the secret. */
export const withoutSecret = (record: WebhookAnswer): Omit<WebhookAnswer, 'secret'> => {
  const copy = { ...record };
  delete copy.secret;
  return copy;
};

/**
 * Opens a sealed secret from its documented layout (version 1 | iv 12 | tag 16 | ciphertext,
 * AES-256-GCM, associated data `webhook:<id>`) with node:crypto alone, not with the code under test.
 */
export function openSealed(sealed: Buffer, webhookId: number): string {
  expect(sealed[0]).toBe(0x01);
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(TEST_WEBHOOK_SECRET_KEY, 'hex'),
    sealed.subarray(1, 13),
  );
  decipher.setAAD(Buffer.from(`webhook:${webhookId}`));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
}

type Answer = { statusCode: number; json: () => unknown };

/** The answer is the spec's 422 VALIDATION_ERROR/INVALID_INPUT, its description matching `description`. */
export function expect422(answer: Answer, description: RegExp): void {
  expect({ status: answer.statusCode, body: answer.json() }).toEqual({
    status: 422,
    body: expect.objectContaining({
      type: 'VALIDATION_ERROR',
      code: 'INVALID_INPUT',
      description: expect.stringMatching(description),
    }),
  });
}

/** The answer is the spec's 404 RESOURCE/NOT_FOUND. */
export function expect404(answer: Answer): void {
  expect({ status: answer.statusCode, body: answer.json() }).toEqual({
    status: 404,
    body: expect.objectContaining({ type: 'RESOURCE', code: 'NOT_FOUND' }),
  });
}
