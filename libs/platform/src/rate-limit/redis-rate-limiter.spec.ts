import type { Redis } from 'ioredis';
import { RedisRateLimiter } from './redis-rate-limiter';

/** Stands in for the two commands the limiter sends; the script itself runs in the int-spec. */
function fakeRedis(replies: { evalsha: () => Promise<unknown>; eval?: () => Promise<unknown> }) {
  const evalsha = jest.fn<Promise<unknown>, unknown[]>(replies.evalsha);
  const evalScript = jest.fn<Promise<unknown>, unknown[]>(
    replies.eval ?? (() => Promise.reject(new Error('unused'))),
  );
  const client = { evalsha, eval: evalScript } as unknown as Redis;
  return { client, evalsha, evalScript };
}

const NOW_MS = 1_777_593_600_250;

describe('RedisRateLimiter (without Redis)', () => {
  it('sends one sorted-set key per window, in the key hash tag, with window lengths and limits', async () => {
    const { client, evalsha } = fakeRedis({
      evalsha: () => Promise.resolve([1, NOW_MS, 0, -1, 3, NOW_MS - 500]),
    });
    const limiter = new RedisRateLimiter(client, { keyPrefix: 'fleet:rl:' });

    const decision = await limiter.consume('key-1:GET /v2/api/companies', [
      { policy: 'minute', limit: 60 },
      { policy: 'second', limit: 5 },
    ]);

    const [sha, keyCount, ...rest] = evalsha.mock.calls[0];
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(keyCount).toBe(2);
    expect(rest.slice(0, 2)).toEqual([
      'fleet:rl:{key-1:GET /v2/api/companies}:minute',
      'fleet:rl:{key-1:GET /v2/api/companies}:second',
    ]);
    expect(rest.slice(3)).toEqual([60_000, 60, 1_000, 5]);
    // The second window held 3 of 5 before this one: 1 left, fewer than the minute's 59.
    expect(decision).toEqual({
      allowed: true,
      limit: 5,
      remaining: 1,
      resetEpochSeconds: Math.ceil((NOW_MS - 500 + 1_000) / 1_000),
      policy: 'second',
    });
  });

  it("sends the injected clock's time after the windows, and nothing there without one", async () => {
    const { client, evalsha } = fakeRedis({ evalsha: () => Promise.resolve([1, NOW_MS, 0, -1]) });
    const windows = [{ policy: 'minute', limit: 60 }] as const;
    await new RedisRateLimiter(client, { clock: () => NOW_MS + 0.7 }).consume('k', windows);
    await new RedisRateLimiter(client).consume('k', windows);
    expect(evalsha.mock.calls[0].slice(4)).toEqual([60_000, 60, NOW_MS]);
    expect(evalsha.mock.calls[1].slice(4)).toEqual([60_000, 60]);
  });

  it('gives every request its own member id, so simultaneous requests are all counted', async () => {
    const { client, evalsha } = fakeRedis({ evalsha: () => Promise.resolve([1, NOW_MS, 0, -1]) });
    const limiter = new RedisRateLimiter(client);
    await Promise.all([1, 2, 3].map(() => limiter.consume('k', [{ policy: 'minute', limit: 60 }])));
    const ids = evalsha.mock.calls.map((call) => call[3]);
    expect(new Set(ids).size).toBe(3);
  });

  it('sends the script itself when Redis does not know it (restart, SCRIPT FLUSH)', async () => {
    const { client, evalScript } = fakeRedis({
      evalsha: () => Promise.reject(new Error('NOSCRIPT No matching script. Please use EVAL.')),
      eval: () => Promise.resolve([0, NOW_MS, 60, NOW_MS - 30_000]),
    });
    const decision = await new RedisRateLimiter(client).consume('k', [{ policy: 'minute', limit: 60 }]);
    expect(evalScript.mock.calls[0][0]).toContain("redis.call('TIME')");
    expect(decision).toMatchObject({ allowed: false, retryAfterSeconds: 60, policy: 'minute' });
  });

  it('passes other Redis errors on', async () => {
    const { client, evalScript } = fakeRedis({
      evalsha: () => Promise.reject(new Error('READONLY replica')),
    });
    await expect(
      new RedisRateLimiter(client).consume('k', [{ policy: 'minute', limit: 60 }]),
    ).rejects.toThrow('READONLY');
    expect(evalScript).not.toHaveBeenCalled();
  });

  it('refuses a reply it does not understand rather than guessing', async () => {
    const { client } = fakeRedis({ evalsha: () => Promise.resolve([1, NOW_MS]) });
    await expect(
      new RedisRateLimiter(client).consume('k', [{ policy: 'minute', limit: 60 }]),
    ).rejects.toThrow('unexpected reply');
  });

  it('rejects a key prefix with braces and an empty key, which would break Redis Cluster slotting', async () => {
    const { client } = fakeRedis({ evalsha: () => Promise.resolve([1, NOW_MS, 0, -1]) });
    expect(() => new RedisRateLimiter(client, { keyPrefix: 'rl:{x}:' })).toThrow('braces');
    await expect(new RedisRateLimiter(client).consume('', [{ policy: 'minute', limit: 60 }])).rejects.toThrow(
      'must not be empty',
    );
  });
});
