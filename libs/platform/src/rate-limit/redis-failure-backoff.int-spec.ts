import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BackoffAttempt, BackoffPolicy, BackoffTicket } from './failure-backoff';
import { RedisFailureBackoff } from './redis-failure-backoff';

// The global test setup sets REDIS_URL (starting a Redis if none runs); the fallback serves direct runs.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const POLICY: BackoffPolicy = {
  freeFailures: 2,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  forgetAfterMs: 60_000,
};

/** A clock that stands still until moved; starts at the present, as key expiry runs on Redis's. */
function manualClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function ticketOf(attempt: BackoffAttempt): BackoffTicket {
  if (!attempt.allowed) throw new Error(`refused for ${attempt.retryAfterMs} ms`);
  return attempt.ticket;
}

describe('RedisFailureBackoff on a real Redis', () => {
  let redis: Redis;
  const prefix = `fleet:rl:test:${randomBytes(6).toString('hex')}:`;
  const backoffWith = (clock?: () => number) => new RedisFailureBackoff(redis, { keyPrefix: prefix, clock });

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    await redis.connect();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('backs off exponentially up to the cap, by the injected clock, and counts no refusal', async () => {
    const clock = manualClock();
    const backoff = backoffWith(clock.now);
    const one = [{ key: 'exp', policy: POLICY }];
    for (let i = 0; i < 3; i++) expect((await backoff.attempt(one)).allowed).toBe(true);
    expect(await backoff.attempt(one)).toEqual({ allowed: false, nowMs: clock.now(), retryAfterMs: 1_000 });
    clock.advance(999);
    expect(await backoff.attempt(one)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    clock.advance(1);
    for (const wait of [2_000, 4_000, 8_000, 8_000]) {
      expect((await backoff.attempt(one)).allowed).toBe(true);
      for (let i = 0; i < 3; i++) {
        expect(await backoff.attempt(one)).toMatchObject({ allowed: false, retryAfterMs: wait });
      }
      clock.advance(wait);
    }
    // The hash expires the forget period after the end of its wait (8 s from the clock's now).
    const ttl = await redis.pttl(backoff.redisKey('exp'));
    expect(ttl).toBeGreaterThan(60_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(68_000);
  });

  it('lets exactly the free attempts and one more through of 100 simultaneous ones, across clients', async () => {
    const other = new Redis(REDIS_URL);
    try {
      const replicas = [backoffWith(), new RedisFailureBackoff(other, { keyPrefix: prefix })];
      const counters = [{ key: 'burst', policy: POLICY }];
      const attempts = await Promise.all(
        Array.from({ length: 100 }, (_, i) => replicas[i % 2].attempt(counters)),
      );
      expect(attempts.filter((a) => a.allowed)).toHaveLength(3);
      expect(await redis.hget(replicas[0].redisKey('burst'), 'f')).toBe('3');
    } finally {
      await other.quit();
    }
  });

  it('takes a success back, keeps a wait a later failure set, and clears what it is told to', async () => {
    const clock = manualClock();
    const backoff = backoffWith(clock.now);
    const policy = { ...POLICY, freeFailures: 0 };
    const counters = [
      { key: 'pair', policy },
      { key: 'address', policy },
    ];
    const first = ticketOf(await backoff.attempt(counters));
    expect(first.blockedUntilAfter).toEqual([clock.now() + 1_000, clock.now() + 1_000]);
    await backoff.succeeded(first, [0]);
    expect(await redis.exists(backoff.redisKey('pair'), backoff.redisKey('address'))).toBe(0);

    const failed = ticketOf(await backoff.attempt(counters)); // stays a failure: waits 1 s
    clock.advance(1_000);
    const later = ticketOf(await backoff.attempt(counters)); // 2 failures: waits 2 s
    await backoff.succeeded(failed, []);
    expect(await backoff.attempt(counters)).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
    await backoff.succeeded(later, []);
    // Both taken back: nothing is left of either counter.
    expect(await redis.exists(backoff.redisKey('pair'), backoff.redisKey('address'))).toBe(0);
  });

  it('enforces a gated counter only on attempts whose gate holds a failure', async () => {
    const clock = manualClock();
    const backoff = backoffWith(clock.now);
    const user = { key: 'user', policy: { ...POLICY, freeFailures: 0 } };
    const fromA = [
      { key: 'pair:a', policy: POLICY },
      { ...user, enforcedAfterFailureOf: 0 },
    ];
    const fromB = [
      { key: 'pair:b', policy: POLICY },
      { ...user, enforcedAfterFailureOf: 0 },
    ];
    expect((await backoff.attempt(fromA)).allowed).toBe(true);
    expect(await backoff.attempt(fromA)).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
    expect((await backoff.attempt(fromB)).allowed).toBe(true);
    expect(await backoff.attempt(fromB)).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
  });

  it('uses the Redis server time without a clock', async () => {
    const backoff = backoffWith();
    const counters = [
      { key: 'server-time', policy: { ...POLICY, freeFailures: 0, baseDelayMs: 60_000, maxDelayMs: 60_000 } },
    ];
    const before = Date.now();
    const ticket = ticketOf(await backoff.attempt(counters));
    expect(ticket.nowMs).toBeGreaterThan(before - 5_000);
    expect(ticket.blockedUntilAfter[0]).toBe(ticket.nowMs + 60_000);
    const refused = await backoff.attempt(counters);
    expect(refused.allowed).toBe(false);
  });
});
