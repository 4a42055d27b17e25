import {
  assertValidBackoffCounters,
  BackoffAttempt,
  BackoffCounter,
  backoffExpiryMs,
  BackoffState,
  BackoffTicket,
  decideBackoffAttempt,
  FailureBackoff,
  refundBackoffAttempt,
} from './failure-backoff';

export interface MemoryFailureBackoffOptions {
  /** Current time in Unix ms; tests pass a fake one. */
  clock?: () => number;
  /** How often (at most) forgotten counters are looked for and dropped, in ms of the clock. */
  sweepIntervalMs?: number;
}

interface StoredState extends BackoffState {
  expiresAtMs: number;
}

/**
 * The embedded mode's backoff counters, in this process's memory. Atomic because `attempt` reads and
 * writes every counter without yielding to the event loop.
 */
export class MemoryFailureBackoff extends FailureBackoff {
  private readonly states = new Map<string, StoredState>();
  private readonly clock: () => number;
  private readonly sweepIntervalMs: number;
  private lastSweepMs: number;

  constructor(options: MemoryFailureBackoffOptions = {}) {
    super();
    this.clock = options.clock ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.lastSweepMs = this.clock();
  }

  /** Counters currently held (forgotten ones go at the next sweep). */
  get trackedKeys(): number {
    return this.states.size;
  }

  // No await inside: checking and counting happen in one turn of the event loop, hence atomically.
  async attempt(counters: readonly BackoffCounter[]): Promise<BackoffAttempt> {
    assertValidBackoffCounters(counters);
    const nowMs = this.clock();
    this.sweepIfDue(nowMs);
    const states = counters.map((counter) => this.read(counter.key, nowMs));
    const decision = decideBackoffAttempt(nowMs, counters, states);
    if (!decision.allowed) return { allowed: false, nowMs, retryAfterMs: decision.retryAfterMs };
    decision.next.forEach((state, index) => {
      const expiresAtMs = backoffExpiryMs(state, counters[index].policy, nowMs);
      this.states.set(counters[index].key, { ...state, expiresAtMs });
    });
    return {
      allowed: true,
      ticket: {
        counters,
        nowMs,
        blockedUntilBefore: states.map((state) => state.blockedUntilMs),
        blockedUntilAfter: decision.next.map((state) => state.blockedUntilMs),
      },
    };
  }

  async succeeded(ticket: BackoffTicket, clear: readonly number[]): Promise<void> {
    const nowMs = this.clock();
    ticket.counters.forEach((counter, index) => {
      const stored = this.states.get(counter.key);
      if (!stored || stored.expiresAtMs <= nowMs || clear.includes(index)) {
        this.states.delete(counter.key);
        return;
      }
      const refunded = refundBackoffAttempt(
        stored,
        ticket.blockedUntilBefore[index],
        ticket.blockedUntilAfter[index],
      );
      if (refunded) this.states.set(counter.key, { ...refunded, expiresAtMs: stored.expiresAtMs });
      else this.states.delete(counter.key);
    });
  }

  private read(key: string, nowMs: number): BackoffState {
    const stored = this.states.get(key);
    if (!stored || stored.expiresAtMs <= nowMs) return { failures: 0, blockedUntilMs: 0 };
    return { failures: stored.failures, blockedUntilMs: stored.blockedUntilMs };
  }

  /** Drops forgotten counters, lazily and at most once per interval, since it walks all of them. */
  private sweepIfDue(nowMs: number): void {
    if (nowMs - this.lastSweepMs < this.sweepIntervalMs) return;
    this.lastSweepMs = nowMs;
    for (const [key, state] of this.states) if (state.expiresAtMs <= nowMs) this.states.delete(key);
  }
}
