import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Provider } from '@nestjs/common';
import { WEBHOOK_DISPATCHER_CONFIG, WebhookDispatcherConfig } from '../webhook-dispatcher.config';

/**
 * A new webhook secret: 32 random bytes written as 64 lowercase hex characters. The spec signs with
 * the secret "exactly as returned at creation, used as UTF-8 text", so this text (not the bytes it
 * spells) is the HMAC key; receivers never decode it.
 */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

/** The layout's version, first byte of every sealed secret: a future layout or cipher gets a new one. */
const VERSION = 0x01;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

/**
 * Webhook secrets at rest: AES-256-GCM with WEBHOOK_SECRET_KEY, as `0x01 | iv (12) | tag (16) |
 * ciphertext`. The webhook's id is the additional authenticated data, so a ciphertext copied onto
 * another webhook's row does not open there (the id is taken from the sequence before the row is
 * written for that reason). The management routes seal; the delivery worker opens to sign.
 *
 * Nothing here logs, and no error carries the secret or the key.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox: the key must be 32 bytes (AES-256)');
  }

  seal(secret: string, webhookId: number): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(additionalData(webhookId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), ciphertext]);
  }

  /** The secret sealed for `webhookId`; throws when it was changed, sealed with another key or for another webhook. */
  open(sealed: Buffer, webhookId: number): string {
    if (sealed.length < HEADER_BYTES || sealed[0] !== VERSION) {
      throw new Error(`SecretBox: the sealed secret of webhook ${webhookId} is not of layout version 1`);
    }
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, HEADER_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(additionalData(webhookId));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      // Node's own message says only "Unsupported state or unable to authenticate data"; say whose.
      throw new Error(
        `SecretBox: the secret of webhook ${webhookId} does not open (changed, another key, or another webhook's)`,
      );
    }
  }
}

const additionalData = (webhookId: number) => Buffer.from(`webhook:${webhookId}`, 'utf8');

/** The process's box, keyed with WEBHOOK_SECRET_KEY (injected by the management routes and the delivery worker). */
export const secretBoxProvider: Provider = {
  provide: SecretBox,
  useFactory: (config: WebhookDispatcherConfig) => new SecretBox(config.secretKey),
  inject: [WEBHOOK_DISPATCHER_CONFIG],
};
