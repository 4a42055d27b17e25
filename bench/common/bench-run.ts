/**
 * The setup the Kafka benches repeat, in one place: the machine calibrated while idle, the broker,
 * a fresh database, a topic namespace of the run, the services' token secret and environment, a
 * producer that plays the other services, and a small pool for the bench's own reads. `close()`
 * undoes it all once the bench has stopped its services.
 */
import { randomUUID } from 'node:crypto';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { Kafka, logLevel, Producer } from 'kafkajs';
import { Pool } from 'pg';
import { calibrate, createBenchDatabase, deleteNamespaceTopics, ensureKafka, log } from './infra';

export interface BenchRun {
  /** `calibrate()` before anything started, for `machineFacts`. */
  calibration: ReturnType<typeof calibrate>;
  kafka: ReturnType<typeof ensureKafka>;
  databaseUrl: string;
  /** The run's topic namespace (KAFKA_NAMESPACE), deleted at the end. */
  namespace: string;
  /** The services' AUTH_JWT_SECRET, which the bench's tokens are signed with. */
  jwtSecret: string;
  /** The environment every service of the run gets. */
  env: Record<string, string>;
  kafkaClient: Kafka;
  /** The bench's idempotent producer, connected. */
  producer: Producer;
  /** Publishes into the run's namespace, as the services the bench plays would. */
  publisher: KafkaEventPublisher;
  /** Two connections to the run's database, for the bench's own statements. */
  pool: Pool;
  /** Disconnects, drops the database (unless kept), deletes the run's topics, stops the bench's broker. */
  close(options?: { keepDatabase?: boolean }): Promise<void>;
}

/**
 * Sets a run up. `rateLimitStore: 'redis'` also gives the run its own key prefix; `env` adds or
 * overrides the services' settings; `calibration`, one the bench took already (before work of its
 * own that `openBenchRun` does not do), instead of taking another.
 */
export async function openBenchRun(options: {
  rateLimitStore: 'memory' | 'redis';
  env?: Record<string, string>;
  calibration?: ReturnType<typeof calibrate>;
}): Promise<BenchRun> {
  const calibration = options.calibration ?? calibrate();
  const kafka = ensureKafka();
  const database = await createBenchDatabase().catch((error: unknown) => {
    kafka.stop();
    throw error;
  });
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const jwtSecret = randomUUID() + randomUUID();
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    KAFKA_BROKERS: kafka.brokers,
    KAFKA_NAMESPACE: namespace,
    AUTH_JWT_SECRET: jwtSecret,
    RATE_LIMIT_STORE: options.rateLimitStore,
    ...(options.rateLimitStore === 'redis' ? { RATE_LIMIT_KEY_PREFIX: `${namespace}:rl:` } : {}),
    ...options.env,
  };
  const kafkaClient = new Kafka({
    clientId: 'bench',
    brokers: kafka.brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const producer = kafkaClient.producer({ idempotent: true });
  const pool = new Pool({ connectionString: database.url, max: 2 });
  const close = async ({ keepDatabase = false } = {}) => {
    await producer.disconnect().catch(() => undefined);
    await pool.end();
    if (keepDatabase) log(`the run's database is kept: ${database.url}`);
    else await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  };
  try {
    await producer.connect();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    calibration,
    kafka,
    databaseUrl: database.url,
    namespace,
    jwtSecret,
    env,
    kafkaClient,
    producer,
    publisher: new KafkaEventPublisher(producer, namespace),
    pool,
    close,
  };
}
