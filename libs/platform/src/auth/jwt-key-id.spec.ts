import { Logger } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import { ServiceConfig } from '../config/service-config';
import { HealthRegistry } from '../health/health.registry';
import { JwtKeyCheck, jwtKeyIdOf, keyIdOfToken } from './jwt-key-id';

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

describe('JwtKeyCheck', () => {
  const secret = 'the-services-signing-secret-0123456789abcdef';
  const config = { auth: { jwtSecret: secret } } as ServiceConfig;

  function checkWithRegistry() {
    const health = new HealthRegistry();
    health.register({ name: 'database', check: async () => undefined });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    return { health, warn, check: new JwtKeyCheck(config, health) };
  }

  afterEach(() => jest.restoreAllMocks());

  it('shows its own key id in readiness, and a forged token with a kid neither degrades readiness nor is echoed there', async () => {
    const { health, check } = checkWithRegistry();
    check.refused(sign({ sub: 'x' }, 'an-attackers-secret', { keyid: 'attacker<script>' }));
    const readiness = await health.evaluate(100);
    expect(readiness).toEqual({
      ready: true,
      status: 'ready',
      checks: { database: 'up' },
      info: { jwtKeyId: jwtKeyIdOf(secret) },
    });
    expect(JSON.stringify(readiness)).not.toContain('attacker');
  });

  it('warns of a foreign key id at most every 10 minutes, logging only what has the shape of a key id', () => {
    const { warn, check } = checkWithRegistry();
    const foreign = jwtKeyIdOf('another-secret-of-enough-length-0123456789');
    check.refused(sign({}, 'x', { keyid: 'attacker\nforged log line' }), 0);
    check.refused(sign({}, 'x', { keyid: foreign }), 60_000);
    check.refused(sign({}, 'x', { keyid: foreign }), 10 * 60_000);
    check.refused(sign({}, secret, { keyid: jwtKeyIdOf(secret) }), 30 * 60_000);
    check.refused(sign({}, 'x'), 40 * 60_000);
    expect(warn.mock.calls.map(([entry]) => (entry as { tokenKeyId: string }).tokenKeyId)).toEqual([
      '(not a key id)',
      foreign,
    ]);
  });
});
