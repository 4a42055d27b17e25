import {
  assertValidRateLimitWindows,
  decideRateLimit,
  RateLimitDecision,
  RateLimiter,
  RateLimitPolicy,
  RateLimitWindow,
  windowLengthMs,
} from './rate-limit';

export interface MemoryRateLimiterOptions {
  /** Current time in Unix ms; tests pass a fake one. */
  clock?: () => number;
  /** How often (at most) idle keys are looked for and dropped, in ms of the clock. */
  sweepIntervalMs?: number;
}

/** Timestamps (ms, ascending) of the requests counted in one window of one key. */
class RequestLog {
  private timestamps: number[] = [];
  /** Index of the oldest live entry: evicting advances it instead of shifting the array. */
  private head = 0;

  get size(): number {
    return this.timestamps.length - this.head;
  }

  get oldest(): number | undefined {
    return this.size > 0 ? this.timestamps[this.head] : undefined;
  }

  /** Drops the requests counted at or before `cutoffMs`. */
  evictUpTo(cutoffMs: number): void {
    while (this.head < this.timestamps.length && this.timestamps[this.head] <= cutoffMs) this.head++;
    // Reclaim the dead prefix once it dominates, so the array does not grow with the request count.
    if (this.head > 64 && this.head * 2 > this.timestamps.length) {
      this.timestamps = this.timestamps.slice(this.head);
      this.head = 0;
    }
  }

  record(timestampMs: number): void {
    // A wall clock can step back (NTP); keeping the log sorted matters more than a few ms of accuracy.
    const newest = this.timestamps[this.timestamps.length - 1];
    this.timestamps.push(newest !== undefined && newest > timestampMs ? newest : timestampMs);
  }
}

/**
 * The embedded mode's limiter: an exact sliding window log per key and window, in this process's
 * memory. Exact under concurrency because `consume` checks and records without yielding to the event
 * loop. Counters are neither shared with other processes nor kept across restarts.
 */
export class MemoryRateLimiter extends RateLimiter {
  private readonly logs = new Map<string, Map<RateLimitPolicy, RequestLog>>();
  private readonly clock: () => number;
  private readonly sweepIntervalMs: number;
  private lastSweepMs: number;

  constructor(options: MemoryRateLimiterOptions = {}) {
    super();
    this.clock = options.clock ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.lastSweepMs = this.clock();
  }

  /** Keys currently holding counted requests (idle ones go at the next sweep). */
  get trackedKeys(): number {
    return this.logs.size;
  }

  // No await inside: checking and recording happen in one turn of the event loop, hence atomically.
  async consume(key: string, windows: readonly RateLimitWindow[]): Promise<RateLimitDecision> {
    assertValidRateLimitWindows(windows);
    const now = this.clock();
    this.sweepIfDue(now);

    let logs = this.logs.get(key);
    if (!logs) {
      logs = new Map();
      this.logs.set(key, logs);
    }
    const usages = windows.map((window) => {
      let log = logs.get(window.policy);
      if (!log) {
        log = new RequestLog();
        logs.set(window.policy, log);
      }
      log.evictUpTo(now - windowLengthMs(window.policy));
      return { window, log, countBefore: log.size, oldestMs: log.oldest };
    });

    const decision = decideRateLimit(now, usages);
    if (decision.allowed) for (const { log } of usages) log.record(now);
    return decision;
  }

  /**
   * Drops keys whose windows are all empty. Done lazily from `consume` (no timer to stop) and at most
   * once per interval, since it walks every key.
   */
  private sweepIfDue(now: number): void {
    if (now - this.lastSweepMs < this.sweepIntervalMs) return;
    this.lastSweepMs = now;
    for (const [key, logs] of this.logs) {
      for (const [policy, log] of logs) {
        log.evictUpTo(now - windowLengthMs(policy));
        if (log.size === 0) logs.delete(policy);
      }
      if (logs.size === 0) this.logs.delete(key);
    }
  }
}
