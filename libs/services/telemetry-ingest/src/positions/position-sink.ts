import { PositionReportedV1, Topics } from '@fleet/contracts';
import { currentTraceparent, EventPublisher } from '@fleet/platform';
import { Injectable } from '@nestjs/common';

/** Most events in one broker send. */
const MAX_EVENTS_PER_SEND = 2_000;
/**
 * Broker sends in flight at once. The idempotent producer numbers each partition's messages in the
 * order sends are made and the broker keeps that order (Kafka allows up to 5 in flight with
 * idempotence), so a vehicle's positions stay in acceptance order. Two rather than four: fewer,
 * larger sends left more CPU for the device port on the 2-core bench machine; one leaves the broker
 * idle between the large sends of the batch endpoint (docs/performance.md has the runs).
 */
export const MAX_SENDS_IN_FLIGHT = 2;

interface Waiting {
  events: PositionReportedV1[];
  /** The caller's trace (null: none, or tracing off): its events carry it, whichever send they go in. */
  traceparent: string | null;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Publishes position events, coalescing concurrent callers into few broker sends. A send starts on the
 * next turn of the event loop, so every report the device port parsed in this turn goes with it; while
 * the allowed sends are in flight, new events queue and leave together in the next one. Each caller
 * still resolves only once the broker holds its own events, so a device's 200 keeps meaning "stored".
 */
@Injectable()
export class PositionSink {
  private queue: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly publisher: EventPublisher) {}

  publish(events: PositionReportedV1[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ events, traceparent: currentTraceparent(), resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_SENDS_IN_FLIGHT) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  /** One sender: takes whatever is queued, sends it, and repeats until the queue is empty. */
  private async drain(): Promise<void> {
    this.inFlight++;
    while (this.queue.length) {
      const batch: Waiting[] = [];
      let count = 0;
      while (
        this.queue.length &&
        (count === 0 || count + this.queue[0].events.length <= MAX_EVENTS_PER_SEND)
      ) {
        const next = this.queue.shift()!;
        batch.push(next);
        count += next.events.length;
      }
      try {
        await this.publisher.publish(
          Topics.positions,
          batch.flatMap((waiting) =>
            waiting.events.map((payload) => ({
              key: String(payload.vehicleId),
              payload,
              headers: waiting.traceparent ? { traceparent: waiting.traceparent } : undefined,
            })),
          ),
        );
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.inFlight--;
  }
}
