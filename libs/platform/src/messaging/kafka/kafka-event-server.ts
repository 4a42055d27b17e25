import { randomUUID } from 'node:crypto';
import { allTopics, deadLetterTopicName } from '@fleet/contracts';
import { Logger } from '@nestjs/common';
import { SpanKind } from '@opentelemetry/api';
import {
  Consumer,
  IHeaders,
  Kafka,
  KafkaMessage,
  Offsets,
  Producer,
  TopicPartitionOffsetAndMetadata,
} from 'kafkajs';
import { namespaced } from '../../config/service-config';
import { FleetMetrics } from '../../metrics/fleet-metrics';
import { BatchCoalescer } from '../batch-coalescer';
import { deadLetterHeaders, DeliveryAbortedError, deliverBatch, RetryPolicy } from '../delivery';
import { ConsumerRegistration, EventServer } from '../event-server';
import { ConsumedEvent, MessageHeaders, RawMessage } from '../message';
import { isSampled, withContinuedSpan } from '../../tracing/trace-context';

function headersToStrings(headers: IHeaders | undefined): MessageHeaders {
  const result: MessageHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    result[name] = Array.isArray(value) ? value.map(String).join(',') : value.toString();
  }
  return result;
}

function toRawMessage(message: KafkaMessage): RawMessage {
  return {
    key: message.key?.toString() ?? null,
    value: message.value,
    headers: headersToStrings(message.headers),
    offset: message.offset,
  };
}

/** The partition count of the widest topic: a consumer can work on all of a fetch's partitions at once. */
const MOST_PARTITIONS = Math.max(...allTopics.map((topic) => topic.partitions));

/** kafkajs' commit shape: the offsets grouped by topic. */
function byTopicPartition(offsets: readonly TopicPartitionOffsetAndMetadata[]): Offsets['topics'] {
  const topics = new Map<string, { partition: number; offset: string }[]>();
  for (const { topic, partition, offset } of offsets) {
    topics.set(topic, [...(topics.get(topic) ?? []), { partition, offset }]);
  }
  return [...topics].map(([topic, partitions]) => ({ topic, partitions }));
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
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
 * How long the broker may hold a fetch that finds no new records. A fetch returns as soon as any
 * record arrives, so this does not delay delivery; it only sets how often an idle consumer asks
 * again, and idle consumers asking often took a measurable share of the broker's CPU from the
 * services beside it (docs/performance.md). Also the most a consumer's disconnect
 * waits for its fetch in flight.
 */
const FETCH_MAX_WAIT_MS = 500;

/**
 * Runs the app's `@ConsumeEvents` handlers on Kafka: one kafkajs consumer per consumer group, batch
 * consumption, manual commits after each delivered chunk (at-least-once), dead letters produced to
 * `<topic>.dlt` before the offset moves past them.
 */
export class KafkaEventServer extends EventServer {
  private readonly log = new Logger('KafkaEventServer');
  private readonly consumers: Consumer[] = [];
  private readonly joinedGroups = new Set<string>();
  private readonly crashed = new Map<string, string>();
  private stopping = false;
  private readonly instanceId = randomUUID();
  /** The lag series each group has reported, by group: a rebalance may take their partitions away. */
  private readonly lagSeries = new Map<
    string,
    Map<string, { group: string; topic: string; partition: string }>
  >();

  constructor(
    private readonly kafka: Kafka,
    private readonly producer: Producer,
    private readonly options: KafkaEventServerOptions = {},
  ) {
    super();
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      const byGroup = new Map<string, ConsumerRegistration[]>();
      for (const registration of this.consumerRegistrations()) {
        // A per-process group must not share partitions with other replicas: make its name unique.
        const group = registration.perProcess
          ? `${registration.group}.${this.instanceId}`
          : registration.group;
        byGroup.set(group, [...(byGroup.get(group) ?? []), registration]);
      }
      for (const [group, registrations] of byGroup) {
        this.consumers.push(await this.startConsumer(group, registrations));
      }
      callback();
    } catch (error) {
      callback(error);
    }
  }

  /** Every group has joined and none has crashed beyond kafkajs' own restarts. */
  consumersHealthy(): { healthy: boolean; detail: string } {
    const groups = this.consumers.length;
    if (this.crashed.size > 0) return { healthy: false, detail: [...this.crashed.values()].join('; ') };
    return {
      healthy: this.joinedGroups.size >= groups,
      detail: `${this.joinedGroups.size}/${groups} groups joined`,
    };
  }

  private async startConsumer(group: string, registrations: ConsumerRegistration[]): Promise<Consumer> {
    const consumer = this.kafka.consumer({
      groupId: namespaced(this.options, group),
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      sessionTimeout: this.options.sessionTimeoutMs ?? 10_000,
      heartbeatInterval: 2_000,
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.forgetLag(group);
      this.joinedGroups.add(group);
      this.crashed.delete(group);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      this.joinedGroups.delete(group);
      if (!event.payload.restart) this.crashed.set(group, `${group}: ${event.payload.error.message}`);
    });
    await consumer.connect();
    for (const registration of registrations) {
      await consumer.subscribe({
        topic: namespaced(this.options, registration.topic.name),
        fromBeginning: registration.fromBeginning,
      });
    }
    const byTopic = new Map(
      registrations.map((registration) => [namespaced(this.options, registration.topic.name), registration]),
    );
    // The partitions of a fetch finish together (a coalescing handler even resolves them with one
    // transaction); their offsets then go in one OffsetCommit request instead of one each.
    //
    // Commits go through the batch payload's `commitOffsetsIfNecessary(offsets)`, not
    // `consumer.commitOffsets`: once a disconnect has begun, kafkajs silently drops the latter, so the
    // chunks handled while the consumer stopped were delivered again after a restart. The payload's
    // commit goes to the group directly, and a stopping consumer waits for its batch (and so for
    // this commit) before it leaves the group. Every batch of one run shares that group.
    let commitThroughGroup: ((offsets: Offsets) => Promise<void>) | undefined;
    const commits = new BatchCoalescer<TopicPartitionOffsetAndMetadata>(async (offsets) => {
      if (commitThroughGroup) await commitThroughGroup({ topics: byTopicPartition(offsets) });
    }, MOST_PARTITIONS * registrations.length);

    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? MOST_PARTITIONS,
      eachBatch: async ({
        batch,
        resolveOffset,
        heartbeat,
        isRunning,
        isStale,
        commitOffsetsIfNecessary,
      }) => {
        const registration = byTopic.get(batch.topic);
        if (!registration) return;
        commitThroughGroup = commitOffsetsIfNecessary;
        // The whole batch is lag until handled: a consumer stuck on it (a dependency away) shows it.
        const first = batch.firstOffset();
        if (first !== null) {
          const beforeFirst = (BigInt(first) - 1n).toString();
          this.recordLag(group, registration.topic.name, batch.partition, batch.highWatermark, beforeFirst);
        }
        for (const messages of chunk(batch.messages, registration.maxBatchSize)) {
          if (!isRunning() || isStale() || this.stopping) return;
          try {
            await deliverBatch(
              {
                topic: registration.topic.name,
                partition: batch.partition,
                messages: messages.map(toRawMessage),
              },
              {
                topic: registration.topic,
                group,
                handle: (events) =>
                  inConsumeSpan(group, batch.topic, batch.partition, events, () =>
                    registration.invoke(events, batch.partition),
                  ),
                deadLetter: async (source, partition, letters) => {
                  await this.producer.send({
                    topic: namespaced(this.options, deadLetterTopicName(source)),
                    acks: -1,
                    messages: letters.map((letter) => ({
                      key: letter.message.key,
                      value: letter.message.value,
                      headers: deadLetterHeaders(source, partition, group, letter),
                    })),
                  });
                  this.options.metrics?.deadLetters.inc({ topic: source }, letters.length);
                  this.log.warn({
                    msg: 'dead-lettered',
                    topic: source,
                    partition,
                    group,
                    count: letters.length,
                  });
                },
                keepAlive: heartbeat,
                onRetry: (error, failures) =>
                  this.log.warn({
                    msg: 'handler failed',
                    topic: batch.topic,
                    partition: batch.partition,
                    group,
                    failures,
                    err: error,
                  }),
                isStopping: () => this.stopping || !isRunning(),
              },
              this.options.retryPolicy,
            );
          } catch (error) {
            if (error instanceof DeliveryAbortedError) return;
            throw error;
          }
          const last = messages[messages.length - 1].offset;
          resolveOffset(last);
          await commits.submit([
            { topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() },
          ]);
          this.recordLag(group, registration.topic.name, batch.partition, batch.highWatermark, last);
          await heartbeat();
        }
      },
    });
    return consumer;
  }

  /**
   * What the group has yet to consume on a partition after handling up to `lastOffset`, as of the
   * fetch: kafkajs' high watermark is the broker's at fetch time, so the figure moves with fetches
   * (a partition that receives nothing gets no batch, and no series, which means no lag).
   */
  private recordLag(
    group: string,
    topic: string,
    partition: number,
    highWatermark: string,
    lastOffset: string,
  ) {
    if (!this.options.metrics) return;
    const lag = BigInt(highWatermark) - BigInt(lastOffset) - 1n;
    // A per-process group's name ends in this process's id: the label keeps the group's own name.
    const labels = { group: group.replace(`.${this.instanceId}`, ''), topic, partition: String(partition) };
    this.options.metrics.consumerLag.set(labels, Number(lag > 0n ? lag : 0n));
    const series = this.lagSeries.get(group) ?? new Map();
    series.set(`${topic}:${partition}`, labels);
    this.lagSeries.set(group, series);
  }

  /** After a rebalance a member reports only the partitions it then holds (another member the rest). */
  private forgetLag(group: string): void {
    for (const labels of this.lagSeries.get(group)?.values() ?? []) {
      this.options.metrics?.consumerLag.remove(labels);
    }
    this.lagSeries.delete(group);
  }

  async close(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.consumers.map((consumer) => consumer.disconnect()));
    this.consumers.length = 0;
  }

  unwrap<T>(): T {
    return this.kafka as T;
  }
}
