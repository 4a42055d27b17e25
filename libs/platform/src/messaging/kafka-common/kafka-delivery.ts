import { allTopics, deadLetterTopicName } from '@fleet/contracts';
import { Logger } from '@nestjs/common';
import { SpanKind } from '@opentelemetry/api';
import { namespaced } from '../../config/service-config';
import { FleetMetrics } from '../../metrics/fleet-metrics';
import { isSampled, withContinuedSpan } from '../../tracing/trace-context';
import { deadLetterHeaders, DeliveryTarget, RetryPolicy } from '../delivery';
import { ConsumerRegistration } from '../event-server';
import { ConsumedEvent, MessageHeaders } from '../message';

/**
 * What both Kafka clients' event servers share: how registrations become consumer groups, how a
 * chunk of one partition is handed to its handler (trace span, dead letters, retry logs), and the
 * settings of their fetches. Only the client calls differ between them.
 */

/** The partition count of the widest topic: a consumer can work on all of a fetch's partitions at once. */
export const MOST_PARTITIONS = Math.max(...allTopics.map((topic) => topic.partitions));

/**
 * How long the broker may hold a fetch that finds no new records. A fetch returns as soon as any
 * record arrives, so this does not delay delivery; it only sets how often an idle consumer asks
 * again, and idle consumers asking often took a measurable share of the broker's CPU from the
 * services beside it (docs/performance.md). Also the most a consumer's disconnect
 * waits for its fetch in flight.
 */
export const FETCH_MAX_WAIT_MS = 500;

/** Heartbeats every 2 s; the session (KafkaConfig.sessionTimeoutMs) defaults to 10 s. */
export const HEARTBEAT_INTERVAL_MS = 2_000;
export const DEFAULT_SESSION_TIMEOUT_MS = 10_000;

export interface KafkaEventServerOptions {
  /** See {@link KafkaConfig.namespace}. */
  namespace?: string;
  /** See {@link KafkaConfig.sessionTimeoutMs}. */
  sessionTimeoutMs?: number;
  retryPolicy?: RetryPolicy;
  /**
   * Partitions one consumer works on at once (default: the most any topic has, 12); per-partition order
   * is kept regardless. All partitions of a fetch in flight together let a handler merge their batches
   * (BatchCoalescer): query-api's position projection does, one transaction for many partitions.
   */
  partitionsConsumedConcurrently?: number;
  /** Where consumer lag and dead letters are counted. */
  metrics?: FleetMetrics;
}

/**
 * The registrations by consumer group. A per-process group must not share partitions with other
 * replicas: its name gets this process's id.
 */
export function registrationsByGroup(
  registrations: readonly ConsumerRegistration[],
  instanceId: string,
): Map<string, ConsumerRegistration[]> {
  const byGroup = new Map<string, ConsumerRegistration[]>();
  for (const registration of registrations) {
    const group = registration.perProcess ? `${registration.group}.${instanceId}` : registration.group;
    byGroup.set(group, [...(byGroup.get(group) ?? []), registration]);
  }
  return byGroup;
}

/**
 * Runs one handler call in a `process <topic>` span that continues the trace of its first sampled
 * event (the parent) and links the other sampled traces: a handler takes the events of a chunk as one
 * piece of work (often one transaction), so that work can have only one parent. What the handler
 * writes or publishes then carries the trace onwards (docs/tracing.md). A chunk without a sampled
 * event gets no span at all: one span per chunk, never per message.
 */
function inConsumeSpan(
  group: string,
  topic: string,
  partition: number,
  events: readonly ConsumedEvent<object>[],
  handle: () => Promise<void>,
): Promise<void> {
  const traceparents = events.map((event) => event.headers.traceparent);
  return withContinuedSpan(
    {
      name: `process ${topic}`,
      kind: SpanKind.CONSUMER,
      parent: traceparents.find(isSampled),
      links: traceparents,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.destination.name': topic,
        'messaging.destination.partition.id': String(partition),
        'messaging.consumer.group.name': group,
        'messaging.batch.message_count': events.length,
      },
    },
    handle,
  );
}

/** A dead letter as either client produces it. */
export interface DeadLetterRecord {
  key: string | null;
  value: Buffer | string | null;
  headers: MessageHeaders;
}

export interface PartitionDelivery {
  registration: ConsumerRegistration;
  /** The group's broker-side name is namespaced; this is the app's. */
  group: string;
  /** The topic's broker-side (namespaced) name. */
  brokerTopic: string;
  partition: number;
  namespace?: string;
  metrics?: FleetMetrics;
  log: Logger;
  /** Produces to a dead-letter topic (broker-side name), acknowledged by all in-sync replicas. */
  sendDeadLetters(topic: string, letters: DeadLetterRecord[]): Promise<void>;
  keepAlive?(): Promise<void>;
  isStopping(): boolean;
}

/** The delivery target of one chunk of one partition: see deliverBatch. */
export function kafkaDeliveryTarget(target: PartitionDelivery): DeliveryTarget<object> {
  const { registration, group, brokerTopic, partition, log } = target;
  return {
    topic: registration.topic,
    group,
    handle: (events) =>
      inConsumeSpan(group, brokerTopic, partition, events, () => registration.invoke(events, partition)),
    deadLetter: async (source, sourcePartition, letters) => {
      await target.sendDeadLetters(
        namespaced({ namespace: target.namespace }, deadLetterTopicName(source)),
        letters.map((letter) => ({
          key: letter.message.key,
          value: letter.message.value,
          headers: deadLetterHeaders(source, sourcePartition, group, letter),
        })),
      );
      target.metrics?.deadLetters.inc({ topic: source }, letters.length);
      log.warn({
        msg: 'dead-lettered',
        topic: source,
        partition: sourcePartition,
        group,
        count: letters.length,
      });
    },
    keepAlive: target.keepAlive,
    onRetry: (error, failures) =>
      log.warn({ msg: 'handler failed', topic: brokerTopic, partition, group, failures, err: error }),
    isStopping: target.isStopping,
  };
}

/**
 * The consumer-lag series of one event server. A per-process group's name ends in the process's id:
 * the label keeps the group's own name. After a rebalance a member reports only the partitions it
 * then holds (another member the rest), so a group's series are forgotten when it joins again.
 */
export class ConsumerLagSeries {
  private readonly byGroup = new Map<
    string,
    Map<string, { group: string; topic: string; partition: string }>
  >();

  constructor(
    private readonly instanceId: string,
    private readonly metrics?: FleetMetrics,
  ) {}

  record(group: string, topic: string, partition: number, lag: bigint): void {
    if (!this.metrics) return;
    const labels = { group: group.replace(`.${this.instanceId}`, ''), topic, partition: String(partition) };
    this.metrics.consumerLag.set(labels, Number(lag > 0n ? lag : 0n));
    const series = this.byGroup.get(group) ?? new Map();
    series.set(`${topic}:${partition}`, labels);
    this.byGroup.set(group, series);
  }

  forget(group: string): void {
    for (const labels of this.byGroup.get(group)?.values() ?? []) this.metrics?.consumerLag.remove(labels);
    this.byGroup.delete(group);
  }
}
