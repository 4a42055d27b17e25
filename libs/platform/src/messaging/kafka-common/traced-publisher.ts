import { encodeEvent, TopicSpec } from '@fleet/contracts';
import { SpanKind } from '@opentelemetry/api';
import { namespaced } from '../../config/service-config';
import {
  currentTraceparent,
  isSampled,
  traceHeadersOf,
  withContinuedSpan,
} from '../../tracing/trace-context';
import { EventPublisher, MessageHeaders, OutgoingEvent } from '../message';

/** One encoded event as a Kafka client sends it. */
export interface KafkaRecord {
  key: string;
  value: Buffer | string;
  headers?: MessageHeaders;
}

/**
 * What both Kafka clients' publishers share: encoding against the topic's schema and the trace headers.
 * A subclass sends one batch to one topic with the idempotent producer and acks from all in-sync
 * replicas, so that a resolved `publish` means the broker has the events durably, in key order,
 * without duplicates from retries.
 *
 * Tracing (docs/tracing.md): each event goes with the `traceparent` it was given (an outbox row
 * stores the one of the transaction that wrote it) or, without one, the caller's active trace. A
 * publish is one broker send and, when any of its events is in a sampled trace, one `send <topic>`
 * producer span: it continues the first sampled trace, whose events then carry the span as their
 * parent, and links the others, whose events keep their own header. Unsampled events cost no span.
 */
export abstract class TracedKafkaPublisher extends EventPublisher {
  constructor(private readonly namespace?: string) {
    super();
  }

  /** Sends to the broker-side (namespaced) topic; resolves once all in-sync replicas have the records. */
  protected abstract send(topic: string, records: KafkaRecord[]): Promise<void>;

  async publish<T extends object>(topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]): Promise<void> {
    if (events.length === 0) return;
    const active = events.every((event) => event.headers?.traceparent) ? null : currentTraceparent();
    const traceparents = events.map((event) => event.headers?.traceparent ?? active);
    const sampled = traceparents.filter(isSampled);
    const name = namespaced({ namespace: this.namespace }, topic.name);
    if (sampled.length === 0) return this.send(name, records(topic, events, traceparents));
    await withContinuedSpan(
      {
        name: `send ${name}`,
        kind: SpanKind.PRODUCER,
        parent: sampled[0],
        links: sampled,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.destination.name': name,
          'messaging.batch.message_count': events.length,
        },
      },
      async () => {
        // Inside the span: its own traceparent, for the events of the trace it continues.
        const own = traceHeadersOf().traceparent;
        await this.send(
          name,
          records(
            topic,
            events,
            traceparents.map((traceparent) => (traceparent === sampled[0] ? own : traceparent)),
          ),
        );
      },
    );
  }
}

/** Encodes every event first: one that breaks the schema throws before anything is sent. */
function records<T extends object>(
  topic: TopicSpec<T>,
  events: readonly OutgoingEvent<T>[],
  traceparents: readonly (string | null | undefined)[],
): KafkaRecord[] {
  return events.map((event, index) => {
    const traceparent = traceparents[index];
    return {
      key: event.key,
      value: encodeEvent(topic, event.payload),
      headers: traceparent ? { ...event.headers, traceparent } : event.headers,
    };
  });
}
