import { HealthRegistry } from './health.registry';

describe('HealthRegistry', () => {
  it('is ready only when every check passes', async () => {
    const registry = new HealthRegistry();
    registry.register({ name: 'database', check: async () => undefined });
    registry.register({ name: 'kafka', check: async () => Promise.reject(new Error('no brokers')) });
    await expect(registry.evaluate(100)).resolves.toEqual({
      ready: false,
      status: 'not ready',
      checks: { database: 'up', kafka: 'down: no brokers' },
      info: {},
    });
  });

  it('counts a check that hangs as down', async () => {
    const registry = new HealthRegistry();
    registry.register({ name: 'slow', check: () => new Promise(() => undefined) });
    await expect(registry.evaluate(20)).resolves.toEqual({
      ready: false,
      status: 'not ready',
      checks: { slow: 'down: slow did not answer within 20 ms' },
      info: {},
    });
  });

  it('is not ready with nothing to check', async () => {
    await expect(new HealthRegistry().evaluate(10)).resolves.toEqual({
      ready: false,
      status: 'not ready',
      checks: {},
      info: {},
    });
  });

  it('stays ready but says degraded when only an advisory check is down', async () => {
    const registry = new HealthRegistry();
    registry.register({ name: 'database', check: async () => undefined });
    registry.register({ name: 'redis', advisory: true, check: () => Promise.reject(new Error('gone')) });
    await expect(registry.evaluate(100)).resolves.toEqual({
      ready: true,
      status: 'degraded',
      checks: { database: 'up', redis: 'down: gone' },
      info: {},
    });
  });

  it('is not ready once shutdown has begun, whatever the checks say', async () => {
    const registry = new HealthRegistry();
    registry.register({ name: 'database', check: async () => undefined });
    registry.setInfo('jwtKeyId', 'abc');
    registry.beginShutdown();
    await expect(registry.evaluate(100)).resolves.toEqual({
      ready: false,
      status: 'shutting down',
      checks: {},
      info: { jwtKeyId: 'abc' },
    });
  });
});
