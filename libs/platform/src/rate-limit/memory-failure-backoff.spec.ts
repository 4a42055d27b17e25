import { BackoffAttempt, backoffDelayMs, BackoffPolicy, BackoffTicket } from './failure-backoff';
import { MemoryFailureBackoff } from './memory-failure-backoff';

const START_MS = Date.UTC(2026, 4, 1);
const POLICY: BackoffPolicy = {
  freeFailures: 2,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  forgetAfterMs: 60_000,
};

function backoffAt(startMs = START_MS) {
  const clock = { nowMs: startMs };
  const backoff = new MemoryFailureBackoff({ clock: () => clock.nowMs });
  return { backoff, advance: (ms: number) => void (clock.nowMs += ms) };
}

function ticketOf(attempt: BackoffAttempt): BackoffTicket {
  if (!attempt.allowed) throw new Error(`refused for ${attempt.retryAfterMs} ms`);
  return attempt.ticket;
}

describe('backoffDelayMs', () => {
  it('is free, then doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 100, 10_000].map((n) => backoffDelayMs(POLICY, n))).toEqual([
      0, 0, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000,
    ]);
  });
});

describe('MemoryFailureBackoff', () => {
  const one = [{ key: 'k', policy: POLICY }];

  it('lets the free failures through, then makes each further one wait twice as long, up to the cap', async () => {
    const { backoff, advance } = backoffAt();
    expect((await backoff.attempt(one)).allowed).toBe(true);
    expect((await backoff.attempt(one)).allowed).toBe(true);
    // The third failure is past the free ones: the next attempt waits 1 s.
    expect((await backoff.attempt(one)).allowed).toBe(true);
    expect(await backoff.attempt(one)).toEqual({ allowed: false, nowMs: START_MS, retryAfterMs: 1_000 });
    advance(999);
    expect(await backoff.attempt(one)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    advance(1);
    for (const wait of [2_000, 4_000, 8_000, 8_000]) {
      expect((await backoff.attempt(one)).allowed).toBe(true);
      expect(await backoff.attempt(one)).toMatchObject({ allowed: false, retryAfterMs: wait });
      advance(wait);
    }
  });

  it('does not count refused attempts, so hammering does not lengthen the wait', async () => {
    const { backoff, advance } = backoffAt();
    for (let i = 0; i < 3; i++) await backoff.attempt(one);
    for (let i = 0; i < 50; i++) {
      expect((await backoff.attempt(one)).allowed).toBe(false);
      advance(10);
    }
    advance(500);
    expect((await backoff.attempt(one)).allowed).toBe(true);
    // The fourth failure: 2 s, not more.
    expect(await backoff.attempt(one)).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
  });

  it('counts concurrent attempts exactly: 50 at once let the free ones and one more through', async () => {
    const { backoff } = backoffAt();
    const attempts = await Promise.all(Array.from({ length: 50 }, () => backoff.attempt(one)));
    expect(attempts.filter((a) => a.allowed)).toHaveLength(3);
  });

  it('forgets a counter once its wait has ended and the forget period passed without failure', async () => {
    const { backoff, advance } = backoffAt();
    for (let i = 0; i < 3; i++) await backoff.attempt(one);
    advance(1_000 + 59_999);
    expect((await backoff.attempt(one)).allowed).toBe(true); // the 4th failure: not forgotten yet
    advance(2_000 + 60_000);
    expect(backoff.trackedKeys).toBe(1);
    // Forgotten: two free failures again, then the third starts at the base delay.
    for (let i = 0; i < 3; i++) expect((await backoff.attempt(one)).allowed).toBe(true);
    expect(await backoff.attempt(one)).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
  });

  it('drops forgotten counters at its sweep, so memory does not grow with every key ever seen', async () => {
    const { backoff, advance } = backoffAt();
    await backoff.attempt([{ key: 'a', policy: POLICY }]);
    await backoff.attempt([{ key: 'b', policy: POLICY }]);
    expect(backoff.trackedKeys).toBe(2);
    advance(120_000);
    await backoff.attempt([{ key: 'c', policy: POLICY }]);
    expect(backoff.trackedKeys).toBe(1);
  });

  it('takes a successful attempt back: one failure fewer, and the wait it started undone', async () => {
    const { backoff } = backoffAt();
    await backoff.attempt(one);
    await backoff.attempt(one);
    // This third attempt would start a 1 s wait; it succeeds, so it starts none.
    await backoff.succeeded(ticketOf(await backoff.attempt(one)), []);
    const again = await backoff.attempt(one);
    expect(again.allowed).toBe(true);
    expect(await backoff.attempt(one)).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
  });

  it('keeps a wait a later attempt lengthened when an earlier one succeeds', async () => {
    const { backoff, advance } = backoffAt();
    const counters = [{ key: 'k', policy: { ...POLICY, freeFailures: 0 } }];
    const first = ticketOf(await backoff.attempt(counters)); // waits 1 s from now
    advance(1_000);
    ticketOf(await backoff.attempt(counters)); // a failure: waits 2 s from now
    await backoff.succeeded(first, []);
    // One failure is left, but the wait the later failure set stands.
    expect(await backoff.attempt(counters)).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
  });

  it('forgets the counters a success clears', async () => {
    const { backoff } = backoffAt();
    const counters = [
      { key: 'pair', policy: POLICY },
      { key: 'address', policy: POLICY },
    ];
    await backoff.attempt(counters);
    await backoff.attempt(counters);
    await backoff.succeeded(ticketOf(await backoff.attempt(counters)), [0]);
    // 'pair' starts afresh; 'address' still holds its two failures: one more free-of-wait attempt.
    const next = ticketOf(await backoff.attempt(counters));
    expect(next.blockedUntilAfter).toEqual([0, START_MS + 1_000]);
  });

  it('enforces a gated counter only once the gating counter holds a failure, and counts it always', async () => {
    const { backoff } = backoffAt();
    const user = { key: 'user', policy: { ...POLICY, freeFailures: 0 } };
    const fromA = [
      { key: 'pair:a', policy: POLICY },
      { ...user, enforcedAfterFailureOf: 0 },
    ];
    const fromB = [
      { key: 'pair:b', policy: POLICY },
      { ...user, enforcedAfterFailureOf: 0 },
    ];
    expect((await backoff.attempt(fromA)).allowed).toBe(true); // the user counter now waits 1 s
    // A has failed for the user: it waits. B has not: it is heard, and counted against the user.
    expect(await backoff.attempt(fromA)).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
    const b = ticketOf(await backoff.attempt(fromB));
    expect(b.blockedUntilAfter[1]).toBe(START_MS + 2_000);
    expect(await backoff.attempt(fromB)).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
  });

  it('rejects counters it cannot honour', async () => {
    const { backoff } = backoffAt();
    await expect(backoff.attempt([])).rejects.toThrow('at least one counter');
    await expect(backoff.attempt([{ key: '', policy: POLICY }])).rejects.toThrow('must not be empty');
    await expect(backoff.attempt([{ key: 'k', policy: { ...POLICY, maxDelayMs: 10 } }])).rejects.toThrow(
      'maxDelayMs',
    );
    await expect(backoff.attempt([{ key: 'k', policy: POLICY, enforcedAfterFailureOf: 0 }])).rejects.toThrow(
      'not another one',
    );
  });
});
