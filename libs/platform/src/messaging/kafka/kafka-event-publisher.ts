import { encodeEvent, TopicSpec } from '@fleet/contracts';
import { CompressionTypes, Producer } from 'kafkajs';
import { namespaced } from '../../config/service-config';
import { inTraceOf } from '../../tracing/trace-context';
import { EventPublisher, OutgoingEvent } from '../message';

/**
 * Consecutive events that continue the same trace (the same `traceparent` header, or none): one send
 * each, so that kafkajs' instrumentation, which parents every message of a send on the active
 * context, parents each on its own trace. Events without the header (and every event with tracing
 * off) make one run: the usual single send.
 */
function runsByTrace<T extends object>(events: readonly OutgoingEvent<T>[]): OutgoingEvent<T>[][] {
  const runs: OutgoingEvent<T>[][] = [];
  let previous: string | undefined;
  for (const event of events) {
    const traceparent = event.headers?.traceparent;
    if (runs.length === 0 || traceparent !== previous) runs.push([]);
    runs[runs.length - 1].push(event);
    previous = traceparent;
  }
  return runs;
}

/**
 * Publishes with the idempotent producer and acks from all in-sync replicas, so that a resolved
 * `publish` means the broker has the events durably, in key order, without duplicates from retries.
 *
 * An event whose headers carry a `traceparent` (an outbox row stores the one of the transaction that
 * wrote it) is sent in that trace's context: its producer span and the header the consumer reads
 * continue the stored trace rather than the relay's (docs/tracing.md).
 */
export class KafkaEventPublisher extends EventPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly namespace?: string,
  ) {
    super();
  }

  async publish<T extends object>(topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]): Promise<void> {
    // In order, one run after the other: a key's events keep their order across runs.
    for (const run of runsByTrace(events)) {
      await inTraceOf(run[0].headers?.traceparent, () => this.send(topic, run));
    }
  }

  private async send<T extends object>(
    topic: TopicSpec<T>,
    events: readonly OutgoingEvent<T>[],
  ): Promise<void> {
    if (events.length === 0) return;
    const messages = events.map((event) => ({
      key: event.key,
      value: encodeEvent(topic, event.payload),
      // A copy: the instrumentation writes its own `traceparent` into the headers it is given.
      headers: event.headers && { ...event.headers },
    }));
    await this.producer.send({
      topic: namespaced({ namespace: this.namespace }, topic.name),
      messages,
      acks: -1,
      compression: CompressionTypes.None,
    });
  }
}
