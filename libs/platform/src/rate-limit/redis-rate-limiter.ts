import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  assertValidRateLimitWindows,
  decideRateLimit,
  RateLimitDecision,
  RateLimiter,
  RateLimitWindow,
  WindowUsage,
  windowLengthMs,
} from './rate-limit';

/**
 * Checks every window and, only if all have room, records the request in all of them: one script, so
 * Redis runs it without interleaving any other client's commands, which is what makes the count exact
 * across replicas. Time comes from the Redis server, so replicas with skewed clocks still agree.
 *
 * KEYS[i]: the sorted set of window i (members are requests, scores their time in ms).
 * ARGV[1]: an id unique to this request; ARGV[2i], ARGV[2i+1]: length (ms) and limit of window i;
 * then, only with an injected clock, the time (ms) to use instead of the server's.
 * Reply: allowed (1/0), server time (ms), then per window the count before this request and the
 * score of its oldest request (-1 when empty).
 */
const CONSUME_SCRIPT = `
-- Before Redis 5 a script that reads TIME may only write if replicated by effects; since 7 it always is.
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local given = ARGV[2 * #KEYS + 2]
if given then now = tonumber(given) end
local allowed = 1
local reply = {0, now}
for i = 1, #KEYS do
  local length = tonumber(ARGV[2 * i])
  local limit = tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - length)
  local count = redis.call('ZCARD', KEYS[i])
  local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
  if count >= limit then allowed = 0 end
  reply[2 * i + 1] = count
  reply[2 * i + 2] = oldest[2] and tonumber(oldest[2]) or -1
end
if allowed == 1 then
  local member = time[1] .. '.' .. time[2] .. ':' .. ARGV[1]
  for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], now, member)
    -- The set is useless once its newest request has left the window.
    redis.call('PEXPIRE', KEYS[i], ARGV[2 * i])
  end
end
reply[1] = allowed
return reply
`;
const CONSUME_SCRIPT_SHA = createHash('sha1').update(CONSUME_SCRIPT).digest('hex');

export interface RedisRateLimiterOptions {
  /** Prepended to every key, so that deployments or tests can share one Redis. */
  keyPrefix?: string;
  /**
   * Current time in Unix ms, instead of the Redis server's; tests pass a fake one to step over a window
   * without waiting for it. Production leaves it out: replicas' clocks may disagree, Redis's is one.
   */
  clock?: () => number;
}

export const DEFAULT_RATE_LIMIT_KEY_PREFIX = 'fleet:rl:';

/**
 * The distributed mode's limiter: an exact sliding window log in Redis, one sorted set per key and
 * window (`<prefix>{<key>}:<policy>`; the braces keep a key's windows in one Redis Cluster slot, as a
 * multi-key script requires). Memory in Redis grows with the limits: a window holds up to `limit`
 * members. The client belongs to the caller, who connects and quits it.
 */
export class RedisRateLimiter extends RateLimiter {
  private readonly keyPrefix: string;
  /** Member ids must be unique across every replica and restart: a random part and a sequence. */
  private readonly instanceId = randomBytes(9).toString('base64url');
  private sequence = 0;
  private readonly clock: (() => number) | undefined;

  constructor(
    private readonly redis: Redis,
    options: RedisRateLimiterOptions = {},
  ) {
    super();
    this.keyPrefix = options.keyPrefix ?? DEFAULT_RATE_LIMIT_KEY_PREFIX;
    this.clock = options.clock;
    if (/[{}]/.test(this.keyPrefix)) {
      // A brace in the prefix would move the hash tag and split a key's windows across cluster slots.
      throw new Error(`rate limit: the key prefix must not contain braces, got "${this.keyPrefix}"`);
    }
  }

  /** The Redis key of one window of one limited key. */
  redisKey(key: string, window: RateLimitWindow): string {
    return `${this.keyPrefix}{${key}}:${window.policy}`;
  }

  async consume(key: string, windows: readonly RateLimitWindow[]): Promise<RateLimitDecision> {
    assertValidRateLimitWindows(windows);
    // An empty hash tag counts as none, which would split the windows across cluster slots.
    if (key === '') throw new Error('rate limit: the key must not be empty');

    const keys = windows.map((window) => this.redisKey(key, window));
    const args = [
      `${this.instanceId}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`,
      ...windows.flatMap((window) => [windowLengthMs(window.policy), window.limit]),
      ...(this.clock ? [Math.floor(this.clock())] : []),
    ];
    const reply = await this.runScript(keys, args);
    const { allowed, nowMs, usages } = parseReply(reply, windows);

    const decision = decideRateLimit(nowMs, usages);
    if (decision.allowed !== allowed) {
      throw new Error(
        `rate limit: the Redis script and decideRateLimit disagree on ${JSON.stringify(reply)}`,
      );
    }
    return decision;
  }

  /** EVALSHA spares sending the script each time; Redis forgets scripts on restart or SCRIPT FLUSH. */
  private async runScript(keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(CONSUME_SCRIPT_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScriptError(error)) throw error;
      return this.redis.eval(CONSUME_SCRIPT, keys.length, ...keys, ...args);
    }
  }
}

/** By message, not class: ioredis's ReplyError may come from another realm (a test sandbox, a bundle). */
function isNoScriptError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string' &&
    error.message.startsWith('NOSCRIPT')
  );
}

function parseReply(
  reply: unknown,
  windows: readonly RateLimitWindow[],
): { allowed: boolean; nowMs: number; usages: WindowUsage[] } {
  const values = Array.isArray(reply) ? (reply as unknown[]) : [];
  if (values.length !== 2 + 2 * windows.length || !values.every((value) => Number.isSafeInteger(value))) {
    throw new Error(`rate limit: unexpected reply of the Redis script: ${JSON.stringify(reply)}`);
  }
  const numbers = values as number[];
  return {
    allowed: numbers[0] === 1,
    nowMs: numbers[1],
    usages: windows.map((window, index) => {
      const oldest = numbers[3 + 2 * index];
      return { window, countBefore: numbers[2 + 2 * index], oldestMs: oldest < 0 ? undefined : oldest };
    }),
  };
}
