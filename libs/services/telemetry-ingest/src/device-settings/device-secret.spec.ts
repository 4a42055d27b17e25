import { createHash } from 'node:crypto';
import { deviceSecretMatches, generateDeviceSecret, hashDeviceSecret } from './device-secret';

describe('device secrets', () => {
  it('are 32 URL-safe characters, new each time', () => {
    const secrets = Array.from({ length: 50 }, () => generateDeviceSecret());
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('are stored as the SHA-256 of their UTF-8 text, never as themselves', () => {
    const secret = generateDeviceSecret();
    const hash = hashDeviceSecret(secret);
    expect(hash).toBe(createHash('sha256').update(Buffer.from(secret, 'utf8')).digest('hex'));
    expect(hash).not.toContain(secret);
  });

  it('match only the secret itself', () => {
    const secret = generateDeviceSecret();
    const hash = hashDeviceSecret(secret);
    expect(deviceSecretMatches(secret, hash)).toBe(true);
    expect(deviceSecretMatches(undefined, hash)).toBe(false);
    expect(deviceSecretMatches('', hash)).toBe(false);
    expect(deviceSecretMatches(secret.slice(0, -1), hash)).toBe(false);
    expect(deviceSecretMatches(`${secret} `, hash)).toBe(false);
    expect(deviceSecretMatches(secret.toUpperCase(), hash)).toBe(false);
    expect(deviceSecretMatches(hash, hash)).toBe(false);
  });

  it('never match a stored value that is not a SHA-256 digest', () => {
    expect(deviceSecretMatches('x', '')).toBe(false);
    expect(deviceSecretMatches('x', 'not hex')).toBe(false);
  });
});
