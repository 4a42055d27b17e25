import { sign } from 'jsonwebtoken';
import { jwtKeyIdOf, keyIdOfToken } from './jwt-key-id';

describe('JWT key ids', () => {
  const secret = 'a-signing-secret-of-enough-length-0123456789';

  it('is a short, stable hash of the secret that differs between secrets and does not show it', () => {
    const id = jwtKeyIdOf(secret);
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(jwtKeyIdOf(secret)).toBe(id);
    expect(jwtKeyIdOf(`${secret}x`)).not.toBe(id);
    expect(secret).not.toContain(id);
  });

  it('reads the kid of a token header, and nothing from a token without one or from garbage', () => {
    expect(keyIdOfToken(sign({}, secret, { keyid: 'k1' }))).toBe('k1');
    expect(keyIdOfToken(sign({}, secret))).toBeUndefined();
    expect(keyIdOfToken('not-a-token')).toBeUndefined();
    expect(keyIdOfToken('')).toBeUndefined();
  });
});
