import { createHmac } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { signatureOf } from './signature';

describe('X-Service-Signature', () => {
  const secret = 'a3f1c0d2e4b6a8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8e0f2a4b6c8';
  const body = '{"AlertType":"Ignition","VehicleId":42,"Data":{"IsStarted":true}}';

  it('is sha256=<hex HMAC of the raw body keyed with the secret as UTF-8>, as an independent verifier reads it', async () => {
    const signature = signatureOf(body, secret);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    await expect(verify(secret, body, signature)).resolves.toBe(true);
  });

  it('does not verify with another secret or another body', async () => {
    const signature = signatureOf(body, secret);
    await expect(verify(`${secret.slice(1)}0`, body, signature)).resolves.toBe(false);
    await expect(verify(secret, `${body} `, signature)).resolves.toBe(false);
  });

  it('keys with the text, not its hex-decoded bytes', () => {
    const asText = signatureOf(body, secret);
    const asBytes = `sha256=${createHmac('sha256', Buffer.from(secret, 'hex')).update(body).digest('hex')}`;
    expect(asText).not.toBe(asBytes);
  });
});
