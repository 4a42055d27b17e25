import { encodeEvent, TopicSpec } from '@fleet/contracts';
import { SpanKind } from '@opentelemetry/api';
import { CompressionTypes, Producer } from 'kafkajs';
import { namespaced } from '../../config/service-config';
import {
  currentTraceparent,
  isSampled,
  traceHeadersOf,
  withContinuedSpan,
} from '../../tracing/trace-context';
import { EventPublisher, OutgoingEvent } from '../message';

/**
 * Publishes with the idempotent producer and acks from all in-sync replicas, so that a resolved
 * `publish` means the broker has the events durably, in key order, without duplicates from retries.
 *
 * Tracing (docs/tracing.md): each event goes with the `traceparent` it was given (an outbox row
 * stores the one of the transaction that wrote it) or, without one, the caller's active trace. A
 * publish is one broker send and, when any of its events is in a sampled trace, one `send <topic>`
 * producer span: it continues the first sampled trace, whose events then carry the span as their
 * parent, and links the others, whose events keep their own header. Unsampled events cost no span.
 */
export class KafkaEventPublisher extends EventPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly namespace?: string,
  ) {
    super();
  }

  async publish<T extends object>(topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]): Promise<void> {
    if (events.length === 0) return;
    const active = events.every((event) => event.headers?.traceparent) ? null : currentTraceparent();
    const traceparents = events.map((event) => event.headers?.traceparent ?? active);
    const sampled = traceparents.filter(isSampled);
    if (sampled.length === 0) return this.send(topic, events, traceparents);
    const name = namespaced({ namespace: this.namespace }, topic.name);
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
          topic,
          events,
          traceparents.map((traceparent) => (traceparent === sampled[0] ? own : traceparent)),
        );
      },
    );
  }

  private async send<T extends object>(
    topic: TopicSpec<T>,
    events: readonly OutgoingEvent<T>[],
    traceparents: readonly (string | null | undefined)[],
  ): Promise<void> {
    const messages = events.map((event, index) => {
      const traceparent = traceparents[index];
      return {
        key: event.key,
        value: encodeEvent(topic, event.payload),
        headers: traceparent ? { ...event.headers, traceparent } : event.headers,
      };
    });
    await this.producer.send({
      topic: namespaced({ namespace: this.namespace }, topic.name),
      messages,
      acks: -1,
      compression: CompressionTypes.None,
    });
  }
}
