import { setTimeout as delay } from 'node:timers/promises';

/** How often a waiting request reads the projection again. */
const PROJECTION_POLL_MS = 50;

/**
 * Reads a projection until the answer is settled, for at most `waitMs`. An id created a moment ago by
 * another service (a vehicle registered through query-api, an alert configuration through
 * alert-engine) reaches this service's projection through that service's outbox and a topic some tens
 * of milliseconds later; a client that creates one and uses it at once would otherwise be told the id
 * does not exist. `settled` says when waiting longer cannot change the answer (the row is there, or
 * the projection knows the id otherwise); after `waitMs` the last read is the answer, settled or not.
 */
export async function readWhenProjected<T>(
  read: () => Promise<T>,
  settled: (value: T) => boolean | Promise<boolean>,
  waitMs: number,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const value = await read();
    if (Date.now() >= deadline || (await settled(value))) return value;
    await delay(PROJECTION_POLL_MS);
  }
}
