/**
 * An open loop of batches at a steady rate, as the latency phases send them: batch `firstBatch + tick`
 * every 1/`batchesPerSecond` s for `seconds`, each sent without waiting for the answers before it.
 */
import { sleep } from './infra';

export interface PacedBatches {
  /** Batches answered other than 200, and the last answer of each such status. */
  failed: number;
  failures: Record<number, string>;
  /** From the first send to the last answer. */
  sentSeconds: number;
  batches: number;
}

/** Sends the batches; `onAccepted` hears of each batch answered 200, with when it was sent. */
export async function pacedBatches<B>(options: {
  batchesPerSecond: number;
  seconds: number;
  firstBatch: number;
  batchOf: (k: number) => B;
  send: (batch: B) => Promise<{ status: number; body: string }>;
  onAccepted: (batch: B, sentAt: number) => void;
}): Promise<PacedBatches> {
  const { batchesPerSecond } = options;
  const batches = options.seconds * batchesPerSecond;
  let failed = 0;
  const failures: Record<number, string> = {};
  const requests: Promise<void>[] = [];
  const started = performance.now();
  for (let tick = 0; tick < batches; tick++) {
    const wait = started + (tick * 1000) / batchesPerSecond - performance.now();
    if (wait > 0) await sleep(wait);
    const batch = options.batchOf(options.firstBatch + tick);
    const sentAt = performance.now();
    requests.push(
      options.send(batch).then((response) => {
        if (response.status !== 200) {
          failures[response.status] = response.body.slice(0, 300);
          failed++;
        } else options.onAccepted(batch, sentAt);
      }),
    );
  }
  await Promise.all(requests);
  return { failed, failures, sentSeconds: (performance.now() - started) / 1000, batches };
}
