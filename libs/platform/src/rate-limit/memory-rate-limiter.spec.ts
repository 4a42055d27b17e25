import { MemoryRateLimiter } from './memory-rate-limiter';
import {
  DEFAULT_RATE_LIMIT_WINDOWS,
  RateLimitDecision,
  rateLimitHeaders,
  RateLimitWindow,
} from './rate-limit';

/** 2026-05-01T00:00:00.000Z: a whole second, so that reset values are easy to read. */
const START_MS = Date.UTC(2026, 4, 1);
const START_S = START_MS / 1_000;

function limiterAt(startMs = START_MS) {
  const clock = { nowMs: startMs };
  const limiter = new MemoryRateLimiter({ clock: () => clock.nowMs });
  const advance = (ms: number) => {
    clock.nowMs += ms;
  };
  return { limiter, clock, advance };
}

async function consumeTimes(
  limiter: MemoryRateLimiter,
  times: number,
  windows: readonly RateLimitWindow[],
  key = 'key-1:GET /v2/api/companies',
): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.consume(key, windows));
  return decisions;
}

const allowedCount = (decisions: readonly RateLimitDecision[]) => decisions.filter((d) => d.allowed).length;

describe('MemoryRateLimiter', () => {
  it('allows 60 per minute by default, then refuses with Retry-After 60 and exact headers', async () => {
    const { limiter, advance } = limiterAt();
    const first = await limiter.consume('k', DEFAULT_RATE_LIMIT_WINDOWS);
    expect(rateLimitHeaders(first)).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': String(START_S + 60),
      'X-RateLimit-Policy': 'minute',
    });

    advance(10_500);
    const rest = await consumeTimes(limiter, 59, DEFAULT_RATE_LIMIT_WINDOWS, 'k');
    expect(allowedCount(rest)).toBe(59);
    // The reset is when the oldest request (at START) leaves, not one minute after the latest.
    expect(rateLimitHeaders(rest[58])).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(START_S + 60),
      'X-RateLimit-Policy': 'minute',
    });

    const refused = await limiter.consume('k', DEFAULT_RATE_LIMIT_WINDOWS);
    expect(refused).toEqual({
      allowed: false,
      limit: 60,
      remaining: 0,
      resetEpochSeconds: START_S + 60,
      policy: 'minute',
      retryAfterSeconds: 60,
    });
    expect(rateLimitHeaders(refused)).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(START_S + 60),
      'X-RateLimit-Policy': 'minute',
      'Retry-After': '60',
    });
  });

  it('is exact for concurrent calls: 200 at once against 60 let exactly 60 through', async () => {
    const { limiter } = limiterAt();
    const decisions = await Promise.all(
      Array.from({ length: 200 }, () => limiter.consume('k', DEFAULT_RATE_LIMIT_WINDOWS)),
    );
    expect(allowedCount(decisions)).toBe(60);
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    expect(new Set(remaining).size).toBe(60);
  });

  it('slides: a slot frees exactly when the oldest request leaves the window, not at a boundary', async () => {
    const windows = [{ policy: 'minute', limit: 3 }] as const;
    const { limiter, advance } = limiterAt(START_MS + 700); // deliberately not on a second
    await limiter.consume('k', windows); // t = 0
    advance(20_000);
    await limiter.consume('k', windows); // t = 20 s
    advance(20_000);
    const third = await limiter.consume('k', windows); // t = 40 s
    expect(third).toMatchObject({ allowed: true, remaining: 0, resetEpochSeconds: START_S + 61 });

    advance(19_999); // t = 59.999 s: the first request is still inside the last 60 s
    expect(await limiter.consume('k', windows)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    advance(1); // t = 60 s: it has left; exactly one slot is free
    expect(await limiter.consume('k', windows)).toMatchObject({
      allowed: true,
      remaining: 0,
      // the oldest is now the request at 20.7 s
      resetEpochSeconds: START_S + 81,
    });
    expect((await limiter.consume('k', windows)).allowed).toBe(false);

    advance(20_000); // t = 80 s: the request of 20 s leaves, the one of 40 s not yet
    expect((await limiter.consume('k', windows)).allowed).toBe(true);
    expect((await limiter.consume('k', windows)).allowed).toBe(false);
  });

  describe('with several windows', () => {
    const secondAndMinute: readonly RateLimitWindow[] = [
      { policy: 'minute', limit: 60 },
      { policy: 'second', limit: 5 },
    ];

    it('reports the window with the fewest requests left, the shorter one on a tie', async () => {
      const { limiter, advance } = limiterAt();
      const [first] = await consumeTimes(limiter, 1, secondAndMinute);
      expect(first).toMatchObject({
        policy: 'second',
        limit: 5,
        remaining: 4,
        resetEpochSeconds: START_S + 1,
      });

      // One request a second: the minute fills up while the second window never holds more than one.
      for (let i = 0; i < 54; i++) {
        advance(1_000);
        await consumeTimes(limiter, 1, secondAndMinute);
      }
      advance(1_000);
      // 55 counted in the minute: 4 left after this one, as in the second window; a tie.
      const [tie] = await consumeTimes(limiter, 1, secondAndMinute);
      expect(tie).toMatchObject({ allowed: true, policy: 'second', limit: 5, remaining: 4 });

      advance(1_000);
      const [minuteTighter] = await consumeTimes(limiter, 1, secondAndMinute);
      expect(minuteTighter).toEqual({
        allowed: true,
        policy: 'minute',
        limit: 60,
        remaining: 3,
        resetEpochSeconds: START_S + 60,
      });
    });

    it('refuses with Retry-After 1 when the second window is used up, and counts nothing', async () => {
      const { limiter, advance } = limiterAt();
      const burst = await consumeTimes(limiter, 8, secondAndMinute);
      expect(allowedCount(burst)).toBe(5);
      expect(burst[5]).toEqual({
        allowed: false,
        limit: 5,
        remaining: 0,
        resetEpochSeconds: START_S + 1,
        policy: 'second',
        retryAfterSeconds: 1,
      });

      advance(1_000);
      // Three refusals were not counted in the minute: 55 of 60 are left, not 52.
      const [afterWait] = await consumeTimes(limiter, 1, [{ policy: 'minute', limit: 60 }]);
      expect(afterWait).toMatchObject({ allowed: true, remaining: 54 });
    });

    it('names the shortest exhausted window when several are used up', async () => {
      const { limiter, advance } = limiterAt();
      const windows: readonly RateLimitWindow[] = [
        { policy: 'day', limit: 10 },
        { policy: 'second', limit: 2 },
        { policy: 'hour', limit: 10 },
      ];
      for (let i = 0; i < 5; i++) {
        if (i > 0) advance(1_000);
        expect(allowedCount(await consumeTimes(limiter, 2, windows))).toBe(2);
      }
      // Second, hour and day are all used up now.
      expect(await limiter.consume('key-1:GET /v2/api/companies', windows)).toMatchObject({
        allowed: false,
        policy: 'second',
        retryAfterSeconds: 1,
      });
      advance(1_000);
      // Waiting the second clears it; hour and day remain: the shorter of those is reported.
      expect(await limiter.consume('key-1:GET /v2/api/companies', windows)).toEqual({
        allowed: false,
        limit: 10,
        remaining: 0,
        resetEpochSeconds: START_S + 3_600,
        policy: 'hour',
        retryAfterSeconds: 3_600,
      });
    });
  });

  it('does not count refused requests: retrying while refused does not extend the lockout', async () => {
    const windows = [{ policy: 'second', limit: 2 }] as const;
    const { limiter, advance } = limiterAt();
    await consumeTimes(limiter, 2, windows);
    for (let i = 0; i < 9; i++) {
      advance(100);
      expect((await limiter.consume('key-1:GET /v2/api/companies', windows)).allowed).toBe(false);
    }
    advance(100); // one second after the first two
    expect(allowedCount(await consumeTimes(limiter, 3, windows))).toBe(2);
  });

  it('keeps keys independent', async () => {
    const { limiter } = limiterAt();
    const windows = [{ policy: 'minute', limit: 2 }] as const;
    expect(allowedCount(await consumeTimes(limiter, 3, windows, 'key-1:GET /a'))).toBe(2);
    expect(allowedCount(await consumeTimes(limiter, 3, windows, 'key-1:GET /b'))).toBe(2);
    expect(allowedCount(await consumeTimes(limiter, 3, windows, 'key-2:GET /a'))).toBe(2);
  });

  it('forgets idle keys, so that memory does not grow with every key ever seen', async () => {
    const { limiter, advance } = limiterAt();
    await limiter.consume('short', [{ policy: 'second', limit: 1 }]);
    await limiter.consume('long', [{ policy: 'hour', limit: 1 }]);
    expect(limiter.trackedKeys).toBe(2);

    advance(60_000);
    await limiter.consume('other', [{ policy: 'second', limit: 1 }]);
    expect(limiter.trackedKeys).toBe(2); // 'short' went; 'long' still counts a request

    advance(3_600_000);
    await limiter.consume('other', [{ policy: 'second', limit: 1 }]);
    expect(limiter.trackedKeys).toBe(1);
    // A forgotten key starts afresh.
    expect(await limiter.consume('long', [{ policy: 'hour', limit: 1 }])).toMatchObject({ allowed: true });
  });

  it('rejects windows it cannot honour', async () => {
    const { limiter } = limiterAt();
    await expect(limiter.consume('k', [])).rejects.toThrow('at least one window');
    await expect(
      limiter.consume('k', [
        { policy: 'minute', limit: 1 },
        { policy: 'minute', limit: 2 },
      ]),
    ).rejects.toThrow('configured twice');
    await expect(limiter.consume('k', [{ policy: 'minute', limit: 0 }])).rejects.toThrow('positive integer');
  });
});
