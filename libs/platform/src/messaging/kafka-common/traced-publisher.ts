import { encodeEvent, encodeEvents, EventCountHeader, TopicSpec } from '@fleet/contracts';
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

/** Most events in one grouped message (about 40 KB of positions: far below the broker's 1 MB). */
export const MAX_EVENTS_PER_MESSAGE = 100;

/**
 * Encodes every event first: one that breaks the schema throws before anything is sent. On a topic that
 * groups events of a key, each key's events go as few messages as their order allows (see groupRuns).
 */
function records<T extends object>(
  topic: TopicSpec<T>,
  events: readonly OutgoingEvent<T>[],
  traceparents: readonly (string | null | undefined)[],
): KafkaRecord[] {
  const headersOf = (event: OutgoingEvent<T>, index: number) => {
    const traceparent = traceparents[index];
    return traceparent ? { ...event.headers, traceparent } : event.headers;
  };
  if (!topic.groupsEventsOfAKey) {
    return events.map((event, index) => ({
      key: event.key,
      value: encodeEvent(topic, event.payload),
      headers: headersOf(event, index),
    }));
  }
  const withTrace = events.map((event, index) => ({ ...event, headers: headersOf(event, index) }));
  return groupRuns(withTrace).map((run) =>
    run.length === 1
      ? { key: run[0].key, value: encodeEvent(topic, run[0].payload), headers: run[0].headers }
      : {
          key: run[0].key,
          value: encodeEvents(
            topic,
            run.map((event) => event.payload),
          ),
          headers: { ...run[0].headers, [EventCountHeader]: String(run.length) },
        },
  );
}

const sameHeaders = (a?: Record<string, string>, b?: Record<string, string>): boolean => {
  const aKeys = Object.keys(a ?? {});
  return aKeys.length === Object.keys(b ?? {}).length && aKeys.every((key) => a![key] === b?.[key]);
};

/**
 * The events in runs that can share a message: one key, the same headers (a message has one set),
 * at most MAX_EVENTS_PER_MESSAGE. A key's events stay in their order: a run takes the key's next events
 * until one differs in headers, which starts the key's next run, and runs go out in the order they
 * were started. Events of different keys may leave in another order than they came, which Kafka
 * never promised consumers across keys.
 */
export function groupRuns<E extends { key: string; headers?: Record<string, string> }>(
  events: readonly E[],
): E[][] {
  const runs: E[][] = [];
  const openRunOfKey = new Map<string, E[]>();
  for (const event of events) {
    const open = openRunOfKey.get(event.key);
    if (open && open.length < MAX_EVENTS_PER_MESSAGE && sameHeaders(open[0].headers, event.headers)) {
      open.push(event);
    } else {
      const run = [event];
      runs.push(run);
      openRunOfKey.set(event.key, run);
    }
  }
  return runs;
}
