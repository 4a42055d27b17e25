import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
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
import { BatchCoalescer } from '../batch-coalescer';
import { chunkByEvents, DeliveryAbortedError, deliverBatch } from '../delivery';
import { ConsumerRegistration, EventServer } from '../event-server';
import {
  ConsumerLagSeries,
  DEFAULT_SESSION_TIMEOUT_MS,
  FETCH_MAX_WAIT_MS,
  HEARTBEAT_INTERVAL_MS,
  kafkaDeliveryTarget,
  KafkaEventServerOptions,
  MOST_PARTITIONS,
  registrationsByGroup,
} from '../kafka-common/kafka-delivery';
import { GroupHealth } from '../kafka-common/group-health';
import { MessageHeaders, RawMessage } from '../message';

export type { KafkaEventServerOptions } from '../kafka-common/kafka-delivery';

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

/** kafkajs' commit shape: the offsets grouped by topic. */
function byTopicPartition(offsets: readonly TopicPartitionOffsetAndMetadata[]): Offsets['topics'] {
  const topics = new Map<string, { partition: number; offset: string }[]>();
  for (const { topic, partition, offset } of offsets) {
    topics.set(topic, [...(topics.get(topic) ?? []), { partition, offset }]);
  }
  return [...topics].map(([topic, partitions]) => ({ topic, partitions }));
}

/**
 * Runs the app's `@ConsumeEvents` handlers on Kafka: one kafkajs consumer per consumer group, batch
 * consumption, manual commits after each delivered chunk (at-least-once), dead letters produced to
 * `<topic>.dlt` before the offset moves past them.
 */
export class KafkaEventServer extends EventServer {
  private readonly log = new Logger('KafkaEventServer');
  private readonly consumers: Consumer[] = [];
  private readonly groups = new GroupHealth();
  private stopping = false;
  private readonly instanceId = randomUUID();
  private readonly lag: ConsumerLagSeries;

  constructor(
    private readonly kafka: Kafka,
    private readonly producer: Producer,
    private readonly options: KafkaEventServerOptions = {},
  ) {
    super();
    this.lag = new ConsumerLagSeries(this.instanceId, options.metrics);
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      const byGroup = registrationsByGroup(this.consumerRegistrations(), this.instanceId);
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
    return this.groups.report(this.consumers.length);
  }

  private async startConsumer(group: string, registrations: ConsumerRegistration[]): Promise<Consumer> {
    const consumer = this.kafka.consumer({
      groupId: namespaced(this.options, group),
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      sessionTimeout: this.options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
      heartbeatInterval: HEARTBEAT_INTERVAL_MS,
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.lag.forget(group);
      this.groups.joined(group);
      this.groups.up(group);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      this.groups.left(group);
      if (!event.payload.restart) this.groups.down(group, event.payload.error.message);
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
        for (const messages of chunkByEvents(batch.messages.map(toRawMessage), registration.maxBatchSize)) {
          if (!isRunning() || isStale() || this.stopping) return;
          try {
            await deliverBatch(
              {
                topic: registration.topic.name,
                partition: batch.partition,
                messages,
              },
              kafkaDeliveryTarget({
                registration,
                group,
                brokerTopic: batch.topic,
                partition: batch.partition,
                namespace: this.options.namespace,
                metrics: this.options.metrics,
                log: this.log,
                sendDeadLetters: async (topic, letters) => {
                  await this.producer.send({ topic, acks: -1, messages: letters });
                },
                keepAlive: heartbeat,
                isStopping: () => this.stopping || !isRunning(),
              }),
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
    this.lag.record(group, topic, partition, BigInt(highWatermark) - BigInt(lastOffset) - 1n);
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
