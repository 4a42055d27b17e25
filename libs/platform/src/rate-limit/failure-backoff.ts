/**
 * Exponential backoff of failed attempts (logins, API-key exchanges), answered before the attempt
 * costs anything. Unlike the rate limiter's windows, which count every request, a backoff counter
 * counts failures: a few are free, then each one doubles the time before the next attempt is heard.
 */

/** How one kind of counter backs off. All times in ms. */
export interface BackoffPolicy {
  /** Failures that cost no wait. */
  freeFailures: number;
  /** The wait after the first failure beyond the free ones; it doubles with each further failure. */
  baseDelayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
  /** A counter is forgotten this long after its wait ends, if no failure came meanwhile. */
  forgetAfterMs: number;
}

/** One counter an attempt is checked against and counted in. */
export interface BackoffCounter {
  /**
   * Names the counter. It ends up in the store (a Redis key): the caller keeps secrets and personal
   * data out of it (hash them).
   */
  key: string;
  policy: BackoffPolicy;
  /**
   * Index of another counter of the same attempt: this counter's wait then holds the attempt back
   * only if that one already holds a failure. The attempt is counted in this counter either way.
   */
  enforcedAfterFailureOf?: number;
}

/**
 * What `attempt` counted, needed to take it back when the attempt turns out to be a success: per
 * counter, the end of its wait (Unix ms, 0 for none) before and after this attempt was counted.
 */
export interface BackoffTicket {
  readonly counters: readonly BackoffCounter[];
  readonly nowMs: number;
  readonly blockedUntilBefore: readonly number[];
  readonly blockedUntilAfter: readonly number[];
}

export type BackoffAttempt =
  | { allowed: true; ticket: BackoffTicket }
  /** `retryAfterMs`: until the longest wait that holds the attempt back ends. */
  | { allowed: false; nowMs: number; retryAfterMs: number };

/**
 * Counters of failed attempts with exponential backoff, shared by every replica in the distributed
 * mode (Redis) and per process in the embedded one (memory).
 *
 * An attempt is counted as a failure when it is let through, before the caller knows how it ends, so
 * that a burst of simultaneous attempts cannot all pass the check before the first failure is
 * recorded; a successful attempt is then taken back with {@link FailureBackoff.succeeded}.
 */
export abstract class FailureBackoff {
  /**
   * Refuses the attempt while any counter (that is enforced) is waiting; otherwise counts it in every
   * counter, atomically, and starts or lengthens the wait of those past their free failures.
   */
  abstract attempt(counters: readonly BackoffCounter[]): Promise<BackoffAttempt>;

  /**
   * The attempt of `ticket` succeeded: the counters whose indexes are in `clear` are forgotten, the
   * others take the attempt back (one failure fewer, and the wait it started, if no later attempt
   * changed it, undone).
   */
  abstract succeeded(ticket: BackoffTicket, clear: readonly number[]): Promise<void>;
}

/** The wait after the `failures`-th failure: 0 while free, then base, 2 base, 4 base ... up to max. */
export function backoffDelayMs(policy: BackoffPolicy, failures: number): number {
  if (failures <= policy.freeFailures) return 0;
  const exponent = failures - policy.freeFailures - 1;
  // 2 ** 52 ms is 140,000 years: past it, the cap has long applied (and the product stays exact).
  return exponent >= 52 ? policy.maxDelayMs : Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
}

/** Throws on a policy the stores cannot honour; call it where policies are configured. */
export function assertValidBackoffPolicy(policy: BackoffPolicy): void {
  const { freeFailures, baseDelayMs, maxDelayMs, forgetAfterMs } = policy;
  if (!Number.isSafeInteger(freeFailures) || freeFailures < 0)
    throw new Error(`backoff: freeFailures must be a non-negative integer, got ${String(freeFailures)}`);
  if (!Number.isSafeInteger(baseDelayMs) || baseDelayMs < 1)
    throw new Error(`backoff: baseDelayMs must be a positive integer, got ${String(baseDelayMs)}`);
  if (!Number.isSafeInteger(maxDelayMs) || maxDelayMs < baseDelayMs)
    throw new Error(
      `backoff: maxDelayMs must be an integer of at least baseDelayMs, got ${String(maxDelayMs)}`,
    );
  if (!Number.isSafeInteger(forgetAfterMs) || forgetAfterMs < 1)
    throw new Error(`backoff: forgetAfterMs must be a positive integer, got ${String(forgetAfterMs)}`);
}

export function assertValidBackoffCounters(counters: readonly BackoffCounter[]): void {
  if (counters.length === 0) throw new Error('backoff: an attempt needs at least one counter');
  counters.forEach((counter, index) => {
    if (counter.key === '') throw new Error('backoff: a counter key must not be empty');
    assertValidBackoffPolicy(counter.policy);
    const gate = counter.enforcedAfterFailureOf;
    if (
      gate !== undefined &&
      (!Number.isSafeInteger(gate) || gate < 0 || gate >= counters.length || gate === index)
    )
      throw new Error(
        `backoff: counter ${index} is gated on counter ${String(gate)}, which is not another one`,
      );
  });
}

/** A counter's state in a store. */
export interface BackoffState {
  failures: number;
  /** Unix ms; 0 (or any past time) for no wait. */
  blockedUntilMs: number;
}

/** When a counter of this state, written at `nowMs`, may be forgotten. */
export function backoffExpiryMs(state: BackoffState, policy: BackoffPolicy, nowMs: number): number {
  return Math.max(state.blockedUntilMs, nowMs) + policy.forgetAfterMs;
}

/**
 * The decision on an attempt, from the counters' states at `nowMs` (the Redis script mirrors it): the
 * states to write if allowed.
 */
export function decideBackoffAttempt(
  nowMs: number,
  counters: readonly BackoffCounter[],
  states: readonly BackoffState[],
): { allowed: true; next: BackoffState[] } | { allowed: false; retryAfterMs: number } {
  let waitMs = 0;
  counters.forEach((counter, index) => {
    const gate = counter.enforcedAfterFailureOf;
    if (gate !== undefined && states[gate].failures === 0) return;
    waitMs = Math.max(waitMs, states[index].blockedUntilMs - nowMs);
  });
  if (waitMs > 0) return { allowed: false, retryAfterMs: waitMs };
  return {
    allowed: true,
    next: counters.map((counter, index) => {
      const failures = states[index].failures + 1;
      const delay = backoffDelayMs(counter.policy, failures);
      const blockedUntilMs =
        delay > 0 ? Math.max(states[index].blockedUntilMs, nowMs + delay) : states[index].blockedUntilMs;
      return { failures, blockedUntilMs };
    }),
  };
}

/** A counter's state once a successful attempt is taken back; undefined when nothing is left of it. */
export function refundBackoffAttempt(
  state: BackoffState,
  blockedUntilBefore: number,
  blockedUntilAfter: number,
): BackoffState | undefined {
  const failures = state.failures - 1;
  if (failures <= 0) return undefined;
  // A later attempt that lengthened the wait keeps it; otherwise this attempt's wait is undone.
  const blockedUntilMs =
    state.blockedUntilMs === blockedUntilAfter ? blockedUntilBefore : state.blockedUntilMs;
  return { failures, blockedUntilMs };
}
