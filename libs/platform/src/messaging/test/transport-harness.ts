import { deadLetterTopicName, TopicSpec } from '@fleet/contracts';
import {
  createTestDatabase,
  createTestKafka,
  testKafkaBrokers,
  uniqueNamespace,
  waitFor,
} from '@fleet/testing';
import { Kafka, Producer } from 'kafkajs';
import { namespaced } from '../../config/service-config';
import { ConsumerExtras } from '../consume-events.decorator';
import { RetryPolicy } from '../delivery';
import { EventServer } from '../event-server';
import { InProcessBroker, InProcessBrokerOptions } from '../in-process/in-process-broker';
import { InProcessEventPublisher } from '../in-process/in-process-event-publisher';
import { InProcessEventServer } from '../in-process/in-process-event-server';
import { PostgresBrokerStore } from '../in-process/postgres-broker.store';
import { createPlatformaticProducer } from '../kafka-next/platformatic-client';
import { PlatformaticEventPublisher } from '../kafka-next/platformatic-event-publisher';
import { PlatformaticEventServer } from '../kafka-next/platformatic-event-server';
import { platformaticKafka } from '../kafka-next/platformatic-kafka';
import { provisionTopics as provisionTopicsNext } from '../kafka-next/topic-provisioning';
import { KafkaEventPublisher } from '../kafka/kafka-event-publisher';
import { KafkaEventServer } from '../kafka/kafka-event-server';
import { topicConfigs } from '../kafka-common/topic-configs';
import { provisionTopics } from '../kafka/topic-provisioning';
import { EventBatch, EventPublisher, MessageHeaders } from '../message';

/** Fast retries so that poison handling is observable within a test. */
export const testRetryPolicy: RetryPolicy = { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 50 };

export interface RunningConsumer {
  stop(): Promise<void>;
}

export interface DeadLetterRecord {
  key: string | null;
  value: string;
  headers: MessageHeaders;
}

/** What the contract suite needs from a transport; one implementation per transport. */
export interface TransportHarness {
  publisher: EventPublisher;
  /** Bypasses the publisher's schema check, as a buggy or foreign producer would. */
  publishRaw(topic: TopicSpec<object>, key: string, value: string): Promise<void>;
  consume<T extends object>(
    topic: TopicSpec<T>,
    group: string,
    handler: (batch: EventBatch<T>) => Promise<void>,
    options?: { maxBatchSize?: number },
  ): Promise<RunningConsumer>;
  deadLetters(topic: TopicSpec<object>, expected: number): Promise<DeadLetterRecord[]>;
  close(): Promise<void>;
}

export interface TransportUnderTest {
  name: string;
  create(topics: TopicSpec<object>[]): Promise<TransportHarness>;
}

/** Registers a handler exactly as Nest does for an `@ConsumeEvents` method, then starts the server. */
async function startServer<T extends object>(
  server: EventServer,
  topic: TopicSpec<T>,
  group: string,
  handler: (batch: EventBatch<T>) => Promise<void>,
  maxBatchSize: number,
): Promise<void> {
  const extras: ConsumerExtras = {
    topic: topic as TopicSpec<object>,
    group,
    fromBeginning: true,
    maxBatchSize,
    perProcess: false,
  };
  server.addHandler(
    topic.name,
    (batch: EventBatch<T>) => handler(batch),
    true,
    extras as unknown as Record<string, unknown>,
  );
  await new Promise<void>((resolve, reject) => {
    void server.listen((error?: unknown) => (error ? reject(error) : resolve()));
  });
}

/** Makes `topics` (and their dead-letter topics) exist on an in-process broker, as the app does. */
export function createTopics(broker: InProcessBroker, topics: readonly TopicSpec<object>[]): void {
  for (const topic of topics) {
    broker.createTopic(topic.name, topic.partitions, topic.cleanupPolicy === 'compact');
    broker.createTopic(deadLetterTopicName(topic.name), 1);
  }
}

/** The durable in-process broker on `databaseUrl`, as the embedded app opens it. */
export async function openDurableBroker(
  databaseUrl: string,
  topics: readonly TopicSpec<object>[],
  options: InProcessBrokerOptions = {},
): Promise<InProcessBroker> {
  const store = await PostgresBrokerStore.connect(databaseUrl, { applicationName: 'contract-test' });
  const broker = await InProcessBroker.open(store, { redeliveryDelayMs: 20, ...options });
  createTopics(broker, topics);
  return broker;
}

function inProcessHarness(broker: InProcessBroker, dispose: () => Promise<void>): TransportHarness {
  const servers: EventServer[] = [];
  return {
    publisher: new InProcessEventPublisher(broker),
    publishRaw: (topic, key, value) => broker.append(topic.name, [{ key, value }]),
    consume: async (topic, group, handler, options) => {
      const server = new InProcessEventServer(broker, testRetryPolicy);
      servers.push(server);
      await startServer(server, topic, group, handler, options?.maxBatchSize ?? 500);
      return { stop: () => server.close() };
    },
    deadLetters: (topic, expected) =>
      waitFor(
        async () => {
          const letters = await broker.peek(deadLetterTopicName(topic.name));
          return letters.length >= expected
            ? letters.map((m) => ({ key: m.key, value: String(m.value), headers: m.headers }))
            : undefined;
        },
        { description: `${expected} dead letters` },
      ),
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
      await broker.close();
      await dispose();
    },
  };
}

/**
 * The dead letters of `topic`, read with a kafkajs consumer of its own. The kafka-next transport's are
 * read the same way: what one client writes, the other reads.
 */
async function readDeadLetters(
  kafka: Kafka,
  namespace: string,
  topic: TopicSpec<object>,
  expected: number,
  readers: { disconnect(): Promise<void> }[],
): Promise<DeadLetterRecord[]> {
  const letters: DeadLetterRecord[] = [];
  const reader = kafka.consumer({ groupId: `${namespace}.dlt-reader.${Math.random()}` });
  readers.push(reader);
  await reader.connect();
  await reader.subscribe({
    topic: namespaced({ namespace }, deadLetterTopicName(topic.name)),
    fromBeginning: true,
  });
  await reader.run({
    eachMessage: async ({ message }) => {
      const headers: MessageHeaders = {};
      for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
      letters.push({
        key: message.key?.toString() ?? null,
        value: message.value?.toString() ?? '',
        headers,
      });
    },
  });
  await waitFor(() => letters.length >= expected, { description: `${expected} dead letters` });
  return letters;
}

/** Joined means partitions are assigned: what is published from now on will be consumed. */
async function waitUntilJoined(
  servers: { consumersHealthy(): { healthy: boolean } }[],
  group: string,
): Promise<void> {
  await waitFor(() => servers.every((s) => s.consumersHealthy().healthy), {
    timeoutMs: 30_000,
    description: `group ${group} to join`,
  });
}

/** The in-memory broker (no store): what unit tests use. */
export const inProcessTransport: TransportUnderTest = {
  name: 'in-process (memory)',
  async create(topics) {
    const broker = new InProcessBroker({ redeliveryDelayMs: 20 });
    createTopics(broker, topics);
    return inProcessHarness(broker, async () => undefined);
  },
};

/** The in-process broker on PostgreSQL (a fresh database each time): what the embedded app runs. */
export const durableInProcessTransport: TransportUnderTest = {
  name: 'in-process (durable, PostgreSQL)',
  async create(topics) {
    const database = await createTestDatabase();
    const broker = await openDurableBroker(database.url, topics);
    return inProcessHarness(broker, () => database.drop());
  },
};

export const kafkaTransport: TransportUnderTest = {
  name: 'kafka',
  async create(topics) {
    const namespace = uniqueNamespace('contract');
    const kafka: Kafka = createTestKafka(namespace);
    const admin = kafka.admin();
    await admin.connect();
    await provisionTopics(admin, topicConfigs(topics, { namespace }));
    await admin.disconnect();
    const producer: Producer = kafka.producer({ idempotent: true, maxInFlightRequests: 5 });
    await producer.connect();
    const servers: KafkaEventServer[] = [];
    const readers: { disconnect(): Promise<void> }[] = [];
    return {
      publisher: new KafkaEventPublisher(producer, namespace),
      publishRaw: async (topic, key, value) => {
        await producer.send({
          topic: namespaced({ namespace }, topic.name),
          acks: -1,
          messages: [{ key, value }],
        });
      },
      consume: async (topic, group, handler, options) => {
        const server = new KafkaEventServer(kafka, producer, { namespace, retryPolicy: testRetryPolicy });
        servers.push(server);
        await startServer(server, topic, group, handler, options?.maxBatchSize ?? 500);
        await waitUntilJoined(servers, group);
        return { stop: () => server.close() };
      },
      deadLetters: (topic, expected) => readDeadLetters(kafka, namespace, topic, expected, readers),
      close: async () => {
        await Promise.all(servers.map((server) => server.close()));
        await Promise.all(readers.map((reader) => reader.disconnect()));
        await producer.disconnect();
      },
    };
  },
};

/** The transport on @platformatic/kafka (KAFKA_CLIENT=platformatic), on the same test broker. */
export const kafkaNextTransport: TransportUnderTest = {
  name: 'kafka (@platformatic/kafka)',
  async create(topics) {
    const namespace = uniqueNamespace('contract-next');
    const client = { clientId: namespace, brokers: testKafkaBrokers() };
    const admin = new (platformaticKafka().Admin)({ clientId: namespace, bootstrapBrokers: client.brokers });
    await provisionTopicsNext(admin, topicConfigs(topics, { namespace }));
    await admin.close();
    const producer = createPlatformaticProducer(client);
    const kafka: Kafka = createTestKafka(namespace);
    const servers: PlatformaticEventServer[] = [];
    const readers: { disconnect(): Promise<void> }[] = [];
    return {
      publisher: new PlatformaticEventPublisher(producer, namespace),
      publishRaw: async (topic, key, value) => {
        await producer.send({ messages: [{ topic: namespaced({ namespace }, topic.name), key, value }] });
      },
      consume: async (topic, group, handler, options) => {
        const server = new PlatformaticEventServer(client, producer, {
          namespace,
          retryPolicy: testRetryPolicy,
        });
        servers.push(server);
        await startServer(server, topic, group, handler, options?.maxBatchSize ?? 500);
        await waitUntilJoined(servers, group);
        return { stop: () => server.close() };
      },
      deadLetters: (topic, expected) => readDeadLetters(kafka, namespace, topic, expected, readers),
      close: async () => {
        await Promise.all(servers.map((server) => server.close()));
        await Promise.all(readers.map((reader) => reader.disconnect()));
        await producer.close();
      },
    };
  },
};
