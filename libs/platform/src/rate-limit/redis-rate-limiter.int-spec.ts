import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  DEFAULT_RATE_LIMIT_WINDOWS,
  RateLimitDecision,
  rateLimitHeaders,
  RateLimitWindow,
} from './rate-limit';
import { RedisRateLimiter } from './redis-rate-limiter';

// The global test setup sets REDIS_URL (starting a Redis if none runs); the fallback serves direct runs.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY = 'key-1:GET /v2/api/companies';

const clients: Redis[] = [];
const prefixes: string[] = [];

/** A connection that fails at once instead of queueing commands while Redis is away. */
async function connect(): Promise<Redis> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  // connect() only says "Connection is closed"; the cause (ECONNREFUSED, ...) arrives as an event.
  let cause: unknown;
  client.on('error', (error: unknown) => {
    cause = error;
  });
  clients.push(client);
  try {
    await client.connect();
  } catch (error) {
    const reason = messageOf(cause ?? error);
    const source = process.env.REDIS_URL ? 'REDIS_URL' : 'the default, REDIS_URL being unset';
    throw new Error(
      `Redis is not reachable at ${REDIS_URL} (${source}): ${reason}. These tests need a real Redis; ` +
        'run them through jest.integration.config.ts, whose setup finds or starts one, or set REDIS_URL.',
    );
  }
  return client;
}

/** Node's socket errors come from outside Jest's sandbox, where `instanceof Error` does not hold. */
function messageOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error
    ? String(error.message)
    : String(error);
}

/**
 * A limiter whose keys no other test (or run) shares. With `clock`, the script takes its time from it
 * instead of from the Redis server, so that a test decides when a window has passed, however slowly
 * the machine runs it.
 */
function limiterOn(client: Redis, clock?: () => number): { limiter: RedisRateLimiter; prefix: string } {
  const prefix = `fleet:rl:test:${randomBytes(6).toString('hex')}:`;
  prefixes.push(prefix);
  return { limiter: new RedisRateLimiter(client, { keyPrefix: prefix, clock }), prefix };
}

/** A clock that stands still until moved; starts at the present, as the sets' expiry runs on Redis's. */
function manualClock() {
  let now = Date.now();
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function concurrently(times: number, call: (index: number) => Promise<RateLimitDecision>) {
  return Promise.all(Array.from({ length: times }, (_, index) => call(index)));
}

const allowed = (decisions: readonly RateLimitDecision[]) => decisions.filter((d) => d.allowed);
const refused = (decisions: readonly RateLimitDecision[]) => decisions.filter((d) => !d.allowed);

async function serverTimeMs(client: Redis): Promise<number> {
  const [seconds, micros] = await client.time();
  return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
}

describe('RedisRateLimiter on a real Redis', () => {
  let redis: Redis;

  beforeAll(async () => {
    redis = await connect();
  });

  afterEach(async () => {
    for (const prefix of prefixes.splice(0)) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
  });

  it('lets exactly 60 of 200 simultaneous requests through a minute window of 60', async () => {
    const { limiter } = limiterOn(redis);
    const decisions = await concurrently(200, () => limiter.consume(KEY, DEFAULT_RATE_LIMIT_WINDOWS));

    expect(allowed(decisions)).toHaveLength(60);
    // Each allowed request saw a different count: remaining 59 down to 0, each exactly once.
    const remaining = allowed(decisions).map((d) => d.remaining);
    expect([...remaining].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const decision of refused(decisions)) {
      expect(decision).toMatchObject({ policy: 'minute', limit: 60, remaining: 0, retryAfterSeconds: 60 });
    }
  });

  it('stays exact across 4 connections, as with 4 replicas sharing one Redis', async () => {
    const replicas = await Promise.all([connect(), connect(), connect(), connect()]);
    const prefix = limiterOn(redis).prefix;
    const limiters = replicas.map((client) => new RedisRateLimiter(client, { keyPrefix: prefix }));

    const decisions = await concurrently(200, (i) =>
      limiters[i % 4].consume(KEY, DEFAULT_RATE_LIMIT_WINDOWS),
    );

    expect(allowed(decisions)).toHaveLength(60);
    expect(await redis.zcard(`${prefix}{${KEY}}:minute`)).toBe(60);
  });

  it('is exact for a second window: 5 of 50 simultaneous requests', async () => {
    // The clock stands still: all 50 fall into one second, however long the machine takes to send them.
    const clock = manualClock();
    const { limiter } = limiterOn(redis, clock.now);
    const windows = [{ policy: 'second', limit: 5 }] as const;
    const decisions = await concurrently(50, () => limiter.consume(KEY, windows));

    expect(allowed(decisions)).toHaveLength(5);
    for (const decision of refused(decisions)) {
      expect(decision).toMatchObject({
        policy: 'second',
        limit: 5,
        remaining: 0,
        retryAfterSeconds: 1,
        resetEpochSeconds: Math.ceil((clock.now() + 1_000) / 1_000),
      });
    }
    // One millisecond short of a second later the window is still full; at a second it is free again.
    clock.advance(999);
    expect((await limiter.consume(KEY, windows)).allowed).toBe(false);
    clock.advance(1);
    expect(allowed(await concurrently(50, () => limiter.consume(KEY, windows)))).toHaveLength(5);
  });

  it('is exact with second, minute, hour and day windows together, and counts no refusal', async () => {
    const clock = manualClock();
    const { limiter, prefix } = limiterOn(redis, clock.now);
    const windows: readonly RateLimitWindow[] = [
      { policy: 'second', limit: 50 },
      { policy: 'minute', limit: 60 },
      { policy: 'hour', limit: 1_000 },
      { policy: 'day', limit: 5_000 },
    ];

    const burst = await concurrently(200, () => limiter.consume(KEY, windows));
    expect(allowed(burst)).toHaveLength(50);
    for (const decision of refused(burst)) {
      expect(decision).toMatchObject({ policy: 'second', limit: 50, retryAfterSeconds: 1 });
    }

    clock.advance(1_000);
    // The second window is free again; the minute window has 10 left, since refusals were not counted.
    const next = await concurrently(200, () => limiter.consume(KEY, windows));
    expect(allowed(next)).toHaveLength(10);
    for (const decision of refused(next)) {
      expect(decision).toMatchObject({ policy: 'minute', limit: 60, retryAfterSeconds: 60 });
    }

    for (const policy of ['minute', 'hour', 'day']) {
      expect(await redis.zcard(`${prefix}{${KEY}}:${policy}`)).toBe(60);
    }
    // Each set expires one window-length after its newest request, so idle keys do not linger.
    const hourTtl = await redis.pttl(`${prefix}{${KEY}}:hour`);
    expect(hourTtl).toBeGreaterThan(3_590_000);
    expect(hourTtl).toBeLessThanOrEqual(3_600_000);
  });

  it('answers the 60th call with Remaining 0 and the 61st with a 429 and Retry-After 60', async () => {
    const { limiter } = limiterOn(redis);
    const before = await serverTimeMs(redis);
    const first = await limiter.consume(KEY, DEFAULT_RATE_LIMIT_WINDOWS);
    const after = await serverTimeMs(redis);
    // The reset is when the first request leaves the window, by the Redis server's clock.
    expect(first.resetEpochSeconds).toBeGreaterThanOrEqual(Math.ceil((before + 60_000) / 1_000));
    expect(first.resetEpochSeconds).toBeLessThanOrEqual(Math.ceil((after + 60_000) / 1_000));
    const reset = String(first.resetEpochSeconds);

    let sixtieth: RateLimitDecision = first;
    for (let call = 2; call <= 60; call++) sixtieth = await limiter.consume(KEY, DEFAULT_RATE_LIMIT_WINDOWS);
    const sixtyFirst = await limiter.consume(KEY, DEFAULT_RATE_LIMIT_WINDOWS);

    expect(sixtieth.allowed).toBe(true);
    expect(rateLimitHeaders(sixtieth)).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': reset,
      'X-RateLimit-Policy': 'minute',
    });
    expect(sixtyFirst.allowed).toBe(false);
    expect(rateLimitHeaders(sixtyFirst)).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': reset,
      'X-RateLimit-Policy': 'minute',
      'Retry-After': '60',
    });
  });

  it('keeps keys independent', async () => {
    const { limiter } = limiterOn(redis);
    const windows = [{ policy: 'minute', limit: 2 }] as const;
    const decisions = await concurrently(12, (i) =>
      limiter.consume(`key-${i % 3}:GET /v2/api/companies`, windows),
    );
    expect(allowed(decisions)).toHaveLength(6);
  });
});
