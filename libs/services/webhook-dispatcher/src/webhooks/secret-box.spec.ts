import { createDecipheriv, randomBytes } from 'node:crypto';
import { newWebhookSecret, SecretBox } from './secret-box';

/** The message `attempt` throws; fails the test when it throws nothing. */
function messageOf(attempt: () => unknown): string {
  try {
    attempt();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('webhook secrets', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it('are 64 lowercase hex characters, different every time', () => {
    const secrets = new Set(Array.from({ length: 20 }, () => newWebhookSecret()));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) expect(secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('open to what was sealed, for the webhook they were sealed for', () => {
    const secret = newWebhookSecret();
    const sealed = box.seal(secret, 42);
    expect(box.open(sealed, 42)).toBe(secret);
    // A fresh IV each time: the same secret never seals to the same bytes.
    expect(box.seal(secret, 42).equals(sealed)).toBe(false);
  });

  it('are laid out as version 1 | iv | tag | ciphertext, AES-256-GCM with the id as associated data', () => {
    const secret = newWebhookSecret();
    const sealed = box.seal(secret, 7);
    expect(sealed[0]).toBe(0x01);
    expect(sealed).toHaveLength(1 + 12 + 16 + Buffer.byteLength(secret));
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    // Opened by node:crypto directly, from the layout alone: the format is what the doc says.
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from('webhook:7'));
    decipher.setAuthTag(sealed.subarray(13, 29));
    const opened = Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString();
    expect(opened).toBe(secret);
  });

  it('refuse to open when a byte was changed anywhere', () => {
    const sealed = box.seal(newWebhookSecret(), 3);
    for (const index of [1, 13, 29, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[index] ^= 0x01;
      expect(() => box.open(tampered, 3)).toThrow(/webhook 3 does not open/);
    }
  });

  it('refuse to open with another key or for another webhook, and never show the secret in the error', () => {
    const secret = newWebhookSecret();
    const sealed = box.seal(secret, 5);
    for (const message of [
      messageOf(() => new SecretBox(randomBytes(32)).open(sealed, 5)),
      messageOf(() => box.open(sealed, 6)),
    ]) {
      expect(message).toMatch(/does not open/);
      expect(message).not.toContain(secret);
    }
  });

  it('refuse another layout version, a truncated value and a key that is not 32 bytes', () => {
    const sealed = box.seal(newWebhookSecret(), 1);
    const otherVersion = Buffer.from(sealed);
    otherVersion[0] = 0x02;
    expect(() => box.open(otherVersion, 1)).toThrow(/not of layout version 1/);
    expect(() => box.open(sealed.subarray(0, 20), 1)).toThrow(/not of layout version 1/);
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
