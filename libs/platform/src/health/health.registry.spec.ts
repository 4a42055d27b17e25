import { HealthRegistry } from './health.registry';

describe('HealthRegistry', () => {
  it('is ready only when every check passes', async () => {
    const registry = new HealthRegistry();
    registry.register({ name: 'database', check: async () => undefined });
    registry.register({ name: 'kafka', check: async () => Promise.reject(new Error('no brokers')) });
    await expect(registry.evaluate(100)).resolves.toEqual({
      ready: false,
      checks: { database: 'up', kafka: 'down: no brokers' },
    });
  });

  it('counts a check that hangs as down', async () => {
    const registry = new HealthRegistry();
    registry.register({ name: 'slow', check: () => new Promise(() => undefined) });
    await expect(registry.evaluate(20)).resolves.toEqual({
      ready: false,
      checks: { slow: 'down: slow did not answer within 20 ms' },
    });
  });

  it('is not ready with nothing to check', async () => {
    await expect(new HealthRegistry().evaluate(10)).resolves.toEqual({ ready: false, checks: {} });
  });
});
