import { randomUUID } from 'node:crypto';
import { EventCountHeader } from '@fleet/contracts';
import { Logger } from '@nestjs/common';
import { namespaced } from '../../config/service-config';
import { DeliveryAbortedError, deliverBatch, eventCount } from '../delivery';
import { ConsumerRegistration, EventServer } from '../event-server';
import {
  ConsumerLagSeries,
  DEFAULT_SESSION_TIMEOUT_MS,
  FETCH_MAX_WAIT_MS,
  HEARTBEAT_INTERVAL_MS,
  kafkaDeliveryTarget,
  KafkaEventServerOptions,
  registrationsByGroup,
} from '../kafka-common/kafka-delivery';
import { GroupHealth } from '../kafka-common/group-health';
import { RawMessage } from '../message';
import {
  baseOptions,
  consumerDeserializers,
  PlatformaticClientConfig,
  PlatformaticProducer,
} from './platformatic-client';
import { Consumer, Message, MessagesStream, platformaticKafka } from './platformatic-kafka';

type GroupConsumer = Consumer<string, Buffer, string, string>;
type Stream = MessagesStream<string, Buffer, string, string>;
type ConsumedMessage = Message<string, Buffer, string, string>;

/** How often a group's lag is asked of the broker: this client reports no high watermark per fetch. */
const LAG_INTERVAL_MS = 5_000;
const FETCH_MAX_BYTES = 10 * 1024 * 1024;
const FETCH_MAX_BYTES_PER_PARTITION = 1024 * 1024;
/**
 * A subscription's stream pauses when this many chunks (of maxBatchSize) wait for their handlers, over
 * all its partitions, and resumes below half of it. kafkajs holds one fetch at a time; a limit per
 * partition let a consumer working through a backlog hold a few chunks for each of its partitions,
 * and its memory grew well past kafkajs' (decision 0017).
 */
const BUFFERED_BATCHES = 4;
/** How long a stream that failed waits before it is opened again, and a chunk whose dead letters failed. */
const RESTART_DELAY_MS = 1_000;

const eventsIn = (message: ConsumedMessage): number => eventCount(message.headers.get(EventCountHeader));

function toRawMessage(message: ConsumedMessage): RawMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of message.headers) headers[name] = value;
  return {
    key: message.key ?? null,
    value: message.value ?? null,
    headers,
    offset: message.offset.toString(),
  };
}

/**
 * The messages of one partition waiting for its handler, and how far it has got. One chunk of a
 * partition is in its handler at a time (per-partition order); partitions run side by side.
 */
interface PartitionQueue {
  topic: string;
  partition: number;
  waiting: ConsumedMessage[];
  /** After the last message handed to the handler: a rejoin fetches again from the committed offset. */
  next?: bigint;
  running?: Promise<void>;
}

/** A partition's key in the stream's fetch positions (`offsetsToFetch`: the client's map, not a documented call). */
const fetchKey = (topic: string, partition: number) => `${topic}:${partition}`;

/** One `@ConsumeEvents` subscription: a stream of the group's consumer, and its partitions' queues. */
interface Subscription {
  group: string;
  registration: ConsumerRegistration;
  brokerTopic: string;
  consumer: GroupConsumer;
  stream?: Stream;
  queues: Map<number, PartitionQueue>;
  /** Events in all its queues (a grouped message counts as its events). */
  waiting: number;
}

/**
 * Runs the app's `@ConsumeEvents` handlers on Kafka with @platformatic/kafka, with the semantics of
 * KafkaEventServer (kafkajs): one consumer per group, `fromBeginning` per subscription, chunks of up
 * to `maxBatchSize` of one partition, a commit after each delivered chunk (at-least-once), dead
 * letters produced to `<topic>.dlt` before the offset moves past them.
 *
 * This client hands out single messages from a stream per subscription, not batches: the server
 * queues them per partition and hands each partition's queue to its handler a chunk at a time. Its
 * heartbeats run on a timer, so a long handler needs no keep-alive call.
 */
export class PlatformaticEventServer extends EventServer {
  private readonly log = new Logger('PlatformaticEventServer');
  private readonly consumers: GroupConsumer[] = [];
  private readonly subscriptions: Subscription[] = [];
  private readonly groups = new GroupHealth();
  private stopping = false;
  private readonly instanceId = randomUUID();
  private readonly lag: ConsumerLagSeries;

  constructor(
    private readonly client: PlatformaticClientConfig,
    private readonly producer: PlatformaticProducer,
    private readonly options: KafkaEventServerOptions = {},
  ) {
    super();
    this.lag = new ConsumerLagSeries(this.instanceId, options.metrics);
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      for (const [group, registrations] of registrationsByGroup(
        this.consumerRegistrations(),
        this.instanceId,
      )) {
        await this.startConsumer(group, registrations);
      }
      callback();
    } catch (error) {
      callback(error);
    }
  }

  /** Every group has joined (and is not rejoining) and no subscription's stream is down. */
  consumersHealthy(): { healthy: boolean; detail: string } {
    return this.groups.report(this.consumers.length);
  }

  private async startConsumer(group: string, registrations: ConsumerRegistration[]): Promise<void> {
    const consumer: GroupConsumer = new (platformaticKafka().Consumer)({
      ...baseOptions(this.client),
      groupId: namespaced(this.options, group),
      autocommit: false,
      autocreateTopics: false,
      maxWaitTime: FETCH_MAX_WAIT_MS,
      // kafkajs' fetch sizes (10 MB a fetch, 1 MB a partition), not this client's 50 MB a fetch,
      // which made a consumer working through a backlog hold far more memory (decision 0017).
      maxBytes: FETCH_MAX_BYTES,
      maxBytesPerPartition: FETCH_MAX_BYTES_PER_PARTITION,
      sessionTimeout: this.options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
      heartbeatInterval: HEARTBEAT_INTERVAL_MS,
      deserializers: consumerDeserializers(),
    });
    this.consumers.push(consumer);
    const subscriptions = registrations.map((registration) => ({
      group,
      registration,
      brokerTopic: namespaced(this.options, registration.topic.name),
      consumer,
      queues: new Map<number, PartitionQueue>(),
      waiting: 0,
    }));
    this.subscriptions.push(...subscriptions);
    // A member that must rejoin still fetches by its old assignment until the join completes: the group
    // is not joined until then (a caller waiting for "joined" then sees the new assignment in place).
    const rejoining = () => this.groups.left(group);
    consumer.on('consumer:group:rebalance', rejoining);
    consumer.on('consumer:group:rejoin', rejoining);
    consumer.on('consumer:group:join', () => {
      this.lag.forget(group);
      this.groups.joined(group);
      for (const subscription of subscriptions) this.forgetWaiting(subscription);
    });
    for (const subscription of subscriptions) await this.openStream(subscription);
    if (this.options.metrics) {
      const byTopic = new Map(subscriptions.map((s) => [s.brokerTopic, s.registration.topic.name]));
      consumer.on('consumer:lag', (lag) => {
        for (const [topic, partitions] of lag) {
          const name = byTopic.get(topic);
          // -1: a partition this member does not hold.
          if (name)
            partitions.forEach(
              (value, partition) => value >= 0n && this.lag.record(group, name, partition, value),
            );
        }
      });
      consumer.startLagMonitoring({ topics: [...byTopic.keys()] }, LAG_INTERVAL_MS);
    }
  }

  /**
   * A stream per subscription, so that each has its own `fromBeginning`: it starts at the group's
   * committed offset, or, for a partition without one, at the earliest or the latest.
   */
  private async openStream(subscription: Subscription): Promise<void> {
    const stream: Stream = await subscription.consumer.consume({
      topics: [subscription.brokerTopic],
      mode: platformaticKafka().MessagesStreamModes.COMMITTED,
      fallbackMode: subscription.registration.fromBeginning
        ? platformaticKafka().MessagesStreamFallbackModes.EARLIEST
        : platformaticKafka().MessagesStreamFallbackModes.LATEST,
      autocommit: false,
    });
    subscription.stream = stream;
    this.groups.up(subscription.group);
    const limit = subscription.registration.maxBatchSize * BUFFERED_BATCHES;
    stream.on('data', (message: ConsumedMessage) => {
      // A fetch sent before a rebalance can answer after it, with a partition another member holds now:
      // that member takes it on from the committed offset, so it is not handed to this one's handler.
      if (!this.holds(subscription, message.partition)) {
        this.forgetFetched(subscription, message);
        return;
      }
      const queue = this.queueOf(subscription, message.partition);
      queue.waiting.push(message);
      subscription.waiting += eventsIn(message);
      if (subscription.waiting >= limit) stream.pause();
      this.schedule(subscription, queue);
    });
    stream.on('error', (error: Error) => {
      if (this.stopping) return;
      // The client gives up a stream when, for instance, a commit kept failing after rejoins. Until it is
      // open again the group is not healthy; what was not committed is fetched again.
      this.groups.down(subscription.group, error.message);
      this.log.error({
        msg: 'consumer stream failed; opening it again',
        group: subscription.group,
        err: error,
      });
      this.forgetWaiting(subscription);
      setTimeout(() => {
        if (this.stopping) return;
        this.openStream(subscription).catch((reopen: unknown) =>
          this.log.error({
            msg: 'could not open the consumer stream',
            group: subscription.group,
            err: reopen,
          }),
        );
      }, RESTART_DELAY_MS);
    });
  }

  private queueOf(subscription: Subscription, partition: number): PartitionQueue {
    let queue = subscription.queues.get(partition);
    if (!queue) {
      queue = { topic: subscription.brokerTopic, partition, waiting: [] };
      subscription.queues.set(partition, queue);
    }
    return queue;
  }

  /**
   * After a rejoin the stream fetches each partition it holds again from the group's committed offset.
   * Messages still waiting are dropped, and the stream's fetch position of a partition without a commit
   * goes back to the first of them, so that none is skipped (the client keeps that position across a
   * rebalance, and only replaces it where the group has committed).
   */
  private forgetWaiting(subscription: Subscription): void {
    for (const queue of subscription.queues.values()) {
      const first = queue.waiting.find((message) => queue.next === undefined || message.offset >= queue.next);
      queue.waiting.length = 0;
      if (first)
        subscription.stream?.offsetsToFetch.set(fetchKey(queue.topic, queue.partition), first.offset);
    }
    subscription.waiting = 0;
    if (subscription.stream?.isPaused()) subscription.stream.resume();
  }

  /**
   * A message of a partition this member does not hold, dropped: should the partition come back before
   * the group commits anything for it, the stream fetches it again from there (as `forgetWaiting` does).
   */
  private forgetFetched(subscription: Subscription, message: ConsumedMessage): void {
    const key = fetchKey(subscription.brokerTopic, message.partition);
    const fetchFrom = subscription.stream?.offsetsToFetch.get(key);
    if (fetchFrom === undefined || message.offset < fetchFrom)
      subscription.stream?.offsetsToFetch.set(key, message.offset);
  }

  /** Starts the partition's drain unless it runs; one that ends with messages waiting starts again. */
  private schedule(subscription: Subscription, queue: PartitionQueue): void {
    if (queue.running) return;
    queue.running = this.drain(subscription, queue)
      // A failed commit: the stream keeps the offset and sends it with the next one, or, when the
      // group must be joined again, fails and is opened again (its 'error' handler).
      .catch((error: unknown) =>
        this.log.warn({ msg: 'commit failed', topic: queue.topic, partition: queue.partition, err: error }),
      )
      .finally(() => {
        queue.running = undefined;
        if (queue.waiting.length > 0 && !this.stopping) this.schedule(subscription, queue);
      });
  }

  /** Hands a partition's waiting messages to the handler, a chunk at a time, committing after each. */
  private async drain(subscription: Subscription, queue: PartitionQueue): Promise<void> {
    const { registration } = subscription;
    while (!this.stopping && queue.waiting.length > 0) {
      // Up to maxBatchSize events, whole messages only (one larger than that goes alone).
      const messages: ConsumedMessage[] = [];
      let events = 0;
      while (queue.waiting.length > 0) {
        const count = eventsIn(queue.waiting[0]);
        if (messages.length > 0 && events + count > registration.maxBatchSize) break;
        const message = queue.waiting.shift()!;
        subscription.waiting -= count;
        // Fetched again after a rejoin, but already handed to the handler.
        if (queue.next === undefined || message.offset >= queue.next) {
          messages.push(message);
          events += count;
        }
      }
      if (messages.length === 0) continue;
      const last = messages[messages.length - 1];
      queue.next = last.offset + 1n;
      const stream = subscription.stream;
      if (stream?.isPaused() && subscription.waiting < (registration.maxBatchSize * BUFFERED_BATCHES) / 2)
        stream.resume();
      if (!(await this.deliver(subscription, queue.partition, messages))) return;
      // Another member may hold the partition since a rebalance; it goes on from the committed offset.
      if (!this.holds(subscription, queue.partition)) continue;
      await last.commit();
    }
  }

  /** True once the chunk is handled or dead-lettered; false if the server stopped first. */
  private async deliver(
    subscription: Subscription,
    partition: number,
    messages: ConsumedMessage[],
  ): Promise<boolean> {
    const { registration, group, brokerTopic } = subscription;
    for (;;) {
      try {
        await deliverBatch(
          { topic: registration.topic.name, partition, messages: messages.map(toRawMessage) },
          kafkaDeliveryTarget({
            registration,
            group,
            brokerTopic,
            partition,
            namespace: this.options.namespace,
            metrics: this.options.metrics,
            log: this.log,
            sendDeadLetters: async (topic, letters) => {
              await this.producer.send({
                messages: letters.map((letter) => ({
                  topic,
                  key: letter.key ?? undefined,
                  value: letter.value ?? undefined,
                  headers: letter.headers,
                })),
              });
            },
            isStopping: () => this.stopping,
          }),
          this.options.retryPolicy,
        );
        return true;
      } catch (error) {
        if (error instanceof DeliveryAbortedError || this.stopping) return false;
        // The dead letters could not be produced: the chunk stays uncommitted and is tried again, as
        // kafkajs does when a batch fails.
        this.log.error({
          msg: 'delivery failed; will retry the chunk',
          topic: brokerTopic,
          partition,
          group,
          err: error,
        });
        await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS));
      }
    }
  }

  private holds(subscription: Subscription, partition: number): boolean {
    return (subscription.consumer.assignments ?? []).some(
      (assignment) =>
        assignment.topic === subscription.brokerTopic && assignment.partitions.includes(partition),
    );
  }

  /** Waits for the chunks in their handlers (and their commits), then leaves the groups. */
  async close(): Promise<void> {
    this.stopping = true;
    const running = this.subscriptions.flatMap((s) => [...s.queues.values()].map((queue) => queue.running));
    await Promise.all(running.filter((drain) => drain !== undefined));
    const streams = this.subscriptions.map((subscription) => subscription.stream);
    await Promise.all(streams.filter((stream) => stream !== undefined).map((stream) => stream.close()));
    await Promise.all(
      this.consumers.map((consumer) => {
        consumer.stopLagMonitoring();
        return consumer.close();
      }),
    );
    this.subscriptions.length = 0;
    this.consumers.length = 0;
  }

  unwrap<T>(): T {
    return this.consumers as T;
  }
}
