import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  assertValidBackoffCounters,
  BackoffAttempt,
  BackoffCounter,
  BackoffTicket,
  FailureBackoff,
} from './failure-backoff';

/**
 * decideBackoffAttempt and backoffExpiryMs of failure-backoff.ts, in one script: Redis runs it without
 * interleaving any other client's commands, so replicas counting attempts at the same moment cannot
 * both pass a check that only one of them should. Time comes from the Redis server unless given.
 *
 * KEYS[i]: the hash of counter i (`f` failures, `u` end of its wait, Unix ms).
 * ARGV[5i-4 .. 5i]: free failures, base delay, max delay, forget-after (ms), and the 1-based index of
 * the counter whose failures gate this one (0 for none); then, only with an injected clock, the time.
 * Reply: {0, now, wait ms} when refused; {1, now, then per counter its wait's end before and after}.
 */
const ATTEMPT_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local n = #KEYS
local now
local given = ARGV[5 * n + 1]
if given then
  now = tonumber(given)
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local failures, untils = {}, {}
for i = 1, n do
  local state = redis.call('HMGET', KEYS[i], 'f', 'u')
  failures[i] = tonumber(state[1]) or 0
  untils[i] = tonumber(state[2]) or 0
end
local wait = 0
for i = 1, n do
  local gate = tonumber(ARGV[5 * i])
  if (gate == 0 or failures[gate] > 0) and untils[i] - now > wait then wait = untils[i] - now end
end
if wait > 0 then return {0, now, wait} end
local reply = {1, now}
for i = 1, n do
  local o = 5 * (i - 1)
  local free, base, cap, forget = tonumber(ARGV[o + 1]), tonumber(ARGV[o + 2]), tonumber(ARGV[o + 3]), tonumber(ARGV[o + 4])
  local count = failures[i] + 1
  local after = untils[i]
  if count > free then
    local exponent = count - free - 1
    local delay = cap
    if exponent < 52 then delay = math.min(cap, base * 2 ^ exponent) end
    after = math.max(after, now + delay)
  end
  redis.call('HSET', KEYS[i], 'f', count, 'u', string.format('%d', after))
  redis.call('PEXPIRE', KEYS[i], math.max(after, now) - now + forget)
  reply[2 * i + 1] = untils[i]
  reply[2 * i + 2] = after
end
return reply
`;

/**
 * refundBackoffAttempt of failure-backoff.ts. ARGV[3i-2 .. 3i]: 1 to forget counter i (0 to take the
 * attempt back), and the end of its wait before and after the attempt. The expiry stays as it was.
 */
const SUCCEEDED_SCRIPT = `
for i = 1, #KEYS do
  local o = 3 * (i - 1)
  if ARGV[o + 1] == '1' then
    redis.call('DEL', KEYS[i])
  else
    local state = redis.call('HMGET', KEYS[i], 'f', 'u')
    local count = tonumber(state[1])
    if count then
      count = count - 1
      local untilMs = tonumber(state[2]) or 0
      if untilMs == tonumber(ARGV[o + 3]) then untilMs = tonumber(ARGV[o + 2]) end
      if count <= 0 then
        redis.call('DEL', KEYS[i])
      else
        redis.call('HSET', KEYS[i], 'f', count, 'u', string.format('%d', untilMs))
      end
    end
  end
end
return 1
`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const ATTEMPT_SHA = sha1(ATTEMPT_SCRIPT);
const SUCCEEDED_SHA = sha1(SUCCEEDED_SCRIPT);

export interface RedisFailureBackoffOptions {
  /** Prepended to every key, so that deployments or tests can share one Redis. */
  keyPrefix?: string;
  /** Current time in Unix ms instead of the Redis server's; for tests (see RedisRateLimiter). */
  clock?: () => number;
}

/**
 * The distributed mode's backoff counters: one Redis hash per counter,
 * `<prefix>{backoff}:<key>`. One attempt reads and writes several counters (a user name's, an
 * address's) in one script, which Redis Cluster allows only within one slot: the common hash tag puts
 * every backoff counter in the same slot, which the low volume of failed logins affords. The client
 * belongs to the caller.
 */
export class RedisFailureBackoff extends FailureBackoff {
  private readonly keyPrefix: string;
  private readonly clock: (() => number) | undefined;

  constructor(
    private readonly redis: Redis,
    options: RedisFailureBackoffOptions = {},
  ) {
    super();
    this.keyPrefix = options.keyPrefix ?? 'fleet:rl:';
    this.clock = options.clock;
    if (/[{}]/.test(this.keyPrefix)) {
      throw new Error(`backoff: the key prefix must not contain braces, got "${this.keyPrefix}"`);
    }
  }

  /** The Redis key of a counter. */
  redisKey(key: string): string {
    return `${this.keyPrefix}{backoff}:${key}`;
  }

  async attempt(counters: readonly BackoffCounter[]): Promise<BackoffAttempt> {
    assertValidBackoffCounters(counters);
    const keys = counters.map((counter) => this.redisKey(counter.key));
    const args = [
      ...counters.flatMap(({ policy, enforcedAfterFailureOf }) => [
        policy.freeFailures,
        policy.baseDelayMs,
        policy.maxDelayMs,
        policy.forgetAfterMs,
        enforcedAfterFailureOf === undefined ? 0 : enforcedAfterFailureOf + 1,
      ]),
      ...(this.clock ? [Math.floor(this.clock())] : []),
    ];
    const reply = await this.run(ATTEMPT_SHA, ATTEMPT_SCRIPT, keys, args);
    const values = Array.isArray(reply) ? (reply as unknown[]) : [];
    const numbers = values.every((value) => Number.isSafeInteger(value)) ? (values as number[]) : [];
    if (numbers[0] === 0 && numbers.length === 3) {
      return { allowed: false, nowMs: numbers[1], retryAfterMs: numbers[2] };
    }
    if (numbers[0] !== 1 || numbers.length !== 2 + 2 * counters.length) {
      throw new Error(`backoff: unexpected reply of the Redis script: ${JSON.stringify(reply)}`);
    }
    return {
      allowed: true,
      ticket: {
        counters,
        nowMs: numbers[1],
        blockedUntilBefore: counters.map((_, index) => numbers[2 + 2 * index]),
        blockedUntilAfter: counters.map((_, index) => numbers[3 + 2 * index]),
      },
    };
  }

  async succeeded(ticket: BackoffTicket, clear: readonly number[]): Promise<void> {
    const keys = ticket.counters.map((counter) => this.redisKey(counter.key));
    const args = ticket.counters.flatMap((_, index) => [
      clear.includes(index) ? 1 : 0,
      ticket.blockedUntilBefore[index],
      ticket.blockedUntilAfter[index],
    ]);
    await this.run(SUCCEEDED_SHA, SUCCEEDED_SCRIPT, keys, args);
  }

  /** EVALSHA spares sending the script each time; Redis forgets scripts on restart or SCRIPT FLUSH. */
  private async run(sha: string, script: string, keys: string[], args: number[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      const message =
        typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : '';
      if (!message.startsWith('NOSCRIPT')) throw error;
      return this.redis.eval(script, keys.length, ...keys, ...args);
    }
  }
}
