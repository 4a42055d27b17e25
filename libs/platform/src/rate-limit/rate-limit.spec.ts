import {
  assertValidRateLimitWindows,
  decideRateLimit,
  rateLimitHeaders,
  RateLimitWindow,
} from './rate-limit';

describe('decideRateLimit', () => {
  const minute: RateLimitWindow = { policy: 'minute', limit: 60 };

  it('resets an empty window one length after now, rounded up to a whole second', () => {
    const decision = decideRateLimit(1_000_000_000_400, [
      { window: minute, countBefore: 0, oldestMs: undefined },
    ]);
    expect(decision).toEqual({
      allowed: true,
      limit: 60,
      remaining: 59,
      resetEpochSeconds: 1_000_000_061,
      policy: 'minute',
    });
  });

  it('allows the last free slot with 0 remaining and refuses the next', () => {
    const oldestMs = 1_000_000_000_000;
    expect(decideRateLimit(oldestMs + 5_000, [{ window: minute, countBefore: 59, oldestMs }])).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    expect(decideRateLimit(oldestMs + 5_000, [{ window: minute, countBefore: 60, oldestMs }])).toEqual({
      allowed: false,
      limit: 60,
      remaining: 0,
      resetEpochSeconds: 1_000_000_060,
      policy: 'minute',
      retryAfterSeconds: 60,
    });
  });
});

describe('rateLimitHeaders', () => {
  it('adds Retry-After only to a refusal', () => {
    const allowed = {
      allowed: true,
      limit: 5,
      remaining: 2,
      resetEpochSeconds: 1_700_000_001,
      policy: 'second' as const,
    };
    expect(rateLimitHeaders(allowed)).not.toHaveProperty('Retry-After');
    expect(rateLimitHeaders({ ...allowed, allowed: false, remaining: 0, retryAfterSeconds: 1 })).toEqual({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1700000001',
      'X-RateLimit-Policy': 'second',
      'Retry-After': '1',
    });
  });
});

describe('assertValidRateLimitWindows', () => {
  it('accepts every policy once with a positive integer limit', () => {
    expect(() =>
      assertValidRateLimitWindows([
        { policy: 'second', limit: 5 },
        { policy: 'minute', limit: 60 },
        { policy: 'hour', limit: 1_000 },
        { policy: 'day', limit: 10_000 },
      ]),
    ).not.toThrow();
  });

  it('names what is wrong with a window read from configuration', () => {
    const fromJson = JSON.parse('[{"policy":"week","limit":5}]') as RateLimitWindow[];
    expect(() => assertValidRateLimitWindows(fromJson)).toThrow('unknown window "week"');
    expect(() => assertValidRateLimitWindows([{ policy: 'hour', limit: 2.5 }])).toThrow(
      'the hour limit must be a positive integer, got 2.5',
    );
  });
});
