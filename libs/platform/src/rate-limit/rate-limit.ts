/** The spec's window names; each has a fixed length. */
export type RateLimitPolicy = 'second' | 'minute' | 'hour' | 'day';

/** At most `limit` requests in any sliding period of the policy's length. */
export interface RateLimitWindow {
  policy: RateLimitPolicy;
  limit: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** `limit`, `remaining`, `resetEpochSeconds` and `policy` describe the most constrained window. */
  limit: number;
  remaining: number;
  resetEpochSeconds: number;
  policy: RateLimitPolicy;
  /** Only when refused: the length of the exhausted window (the shortest one if several are). */
  retryAfterSeconds?: number;
}

/**
 * Counts requests per key over sliding windows. `key` identifies who calls what (the caller builds it
 * from API key and endpoint). An allowed request is counted in every window at once; a refused one in
 * none, so a client that keeps retrying while refused does not extend its own lockout.
 */
export abstract class RateLimiter {
  abstract consume(key: string, windows: readonly RateLimitWindow[]): Promise<RateLimitDecision>;
}

export const RATE_LIMIT_WINDOW_SECONDS: Readonly<Record<RateLimitPolicy, number>> = {
  second: 1,
  minute: 60,
  hour: 3_600,
  day: 86_400,
};

/** The spec's one stated limit: a sliding 60 requests per 60 seconds. */
export const DEFAULT_RATE_LIMIT_WINDOWS: readonly RateLimitWindow[] = [{ policy: 'minute', limit: 60 }];

export function windowLengthMs(policy: RateLimitPolicy): number {
  return RATE_LIMIT_WINDOW_SECONDS[policy] * 1_000;
}

/**
 * Throws on a configuration the limiters cannot honour. Worth calling where windows are configured,
 * so that a bad setting stops the process at start rather than failing every request.
 */
export function assertValidRateLimitWindows(windows: readonly RateLimitWindow[]): void {
  if (windows.length === 0) {
    throw new Error('rate limit: at least one window is required (exempt the route instead)');
  }
  const seen = new Set<string>();
  for (const { policy, limit } of windows) {
    // Configuration may come from JSON or the environment, where the type is only a promise.
    if (!Object.hasOwn(RATE_LIMIT_WINDOW_SECONDS, policy)) {
      throw new Error(`rate limit: unknown window "${String(policy)}" (second, minute, hour or day)`);
    }
    // Both limiters keep one log per key and policy: two windows of one policy would share it.
    if (seen.has(policy)) throw new Error(`rate limit: the ${policy} window is configured twice`);
    seen.add(policy);
    // A limit of 0 would refuse forever, which contradicts the Retry-After the spec promises.
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new Error(`rate limit: the ${policy} limit must be a positive integer, got ${String(limit)}`);
    }
  }
}

/** What a limiter observed in one window, before counting the current request. */
export interface WindowUsage {
  window: RateLimitWindow;
  /** Requests counted in the last window-length, not including the current one. */
  countBefore: number;
  /** When the oldest of those was counted (Unix ms); undefined when there is none. */
  oldestMs: number | undefined;
}

/**
 * The decision both limiters report, from the usage they observed at `nowMs`. The request is allowed
 * only if every window still has room. Headers then describe the window with the fewest requests left
 * after this one (on a tie the shorter window, which frees up sooner); a refusal describes the
 * shortest exhausted window, the first one waiting can clear.
 */
export function decideRateLimit(nowMs: number, usages: readonly WindowUsage[]): RateLimitDecision {
  if (usages.length === 0) throw new Error('rate limit: no window to decide on');
  const shortestFirst = [...usages].sort(
    (a, b) => RATE_LIMIT_WINDOW_SECONDS[a.window.policy] - RATE_LIMIT_WINDOW_SECONDS[b.window.policy],
  );
  const exhausted = shortestFirst.find((usage) => usage.countBefore >= usage.window.limit);
  if (exhausted) {
    const { policy, limit } = exhausted.window;
    return {
      allowed: false,
      limit,
      remaining: 0,
      // countBefore >= limit >= 1, so the window does hold an oldest request.
      resetEpochSeconds: resetEpochSeconds(exhausted.oldestMs ?? nowMs, policy),
      policy,
      retryAfterSeconds: RATE_LIMIT_WINDOW_SECONDS[policy],
    };
  }

  let tightest = shortestFirst[0];
  for (const usage of shortestFirst) {
    if (remainingAfter(usage) < remainingAfter(tightest)) tightest = usage;
  }
  const { policy, limit } = tightest.window;
  return {
    allowed: true,
    limit,
    remaining: remainingAfter(tightest),
    // An empty window now holds just this request, which leaves it one window-length from now.
    resetEpochSeconds: resetEpochSeconds(tightest.oldestMs ?? nowMs, policy),
    policy,
  };
}

function remainingAfter(usage: WindowUsage): number {
  return Math.max(0, usage.window.limit - usage.countBefore - 1);
}

/** The request counted at `oldestMs` leaves the window one length later; rounded up to whole seconds. */
function resetEpochSeconds(oldestMs: number, policy: RateLimitPolicy): number {
  return Math.ceil((oldestMs + windowLengthMs(policy)) / 1_000);
}

/** The response headers of a rate-limited route, as the spec names them. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetEpochSeconds),
    'X-RateLimit-Policy': decision.policy,
  };
  if (!decision.allowed && decision.retryAfterSeconds !== undefined) {
    headers['Retry-After'] = String(decision.retryAfterSeconds);
  }
  return headers;
}
