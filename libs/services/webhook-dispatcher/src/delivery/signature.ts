import { createHmac } from 'node:crypto';

/**
 * `X-Service-Signature` (spec, "Signature check"): `sha256=` and the hex HMAC-SHA256 of the exact body
 * bytes, keyed with the webhook's secret as UTF-8 text (the 64 hex characters are the key as they
 * are, not decoded).
 */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex')}`;
}
