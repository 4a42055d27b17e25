import { KafkaConfig } from '../../config/service-config';
import { platformaticKafka, Producer, RetryDelayGetter } from './platformatic-kafka';

/** What the @platformatic/kafka clients of one process are made from. */
export type PlatformaticClientConfig = Pick<KafkaConfig, 'brokers' | 'clientId'>;

/** Keys and headers are strings; values stay bytes (the codec decodes them, or dead-letters them). */
export type PlatformaticProducer = Producer<string, Buffer | string, string, string>;

/** kafkajs' schedule: 100 ms, doubling, at most 10 retries (about 50 s in all before a call fails). */
const retryDelay: RetryDelayGetter = (_client, _operation, attempt) => Math.min(100 * 2 ** attempt, 10_000);

/** The connection settings both transports use (see kafka/kafka-client.ts). */
export function baseOptions(config: PlatformaticClientConfig) {
  return {
    clientId: config.clientId,
    bootstrapBrokers: config.brokers,
    connectTimeout: 3_000,
    timeout: 30_000,
    retries: 10,
    retryDelay,
  };
}

export function consumerDeserializers() {
  const { stringDeserializer } = platformaticKafka();
  return { key: stringDeserializer, headerKey: stringDeserializer, headerValue: stringDeserializer };
}

function bytes(value?: Buffer | string): Buffer | undefined {
  return value === undefined || Buffer.isBuffer(value) ? value : Buffer.from(value);
}

/**
 * The idempotent producer, acks from all in-sync replicas. The partitioner is the Java client's and
 * kafkajs' (murmur2 of the key, sign bit masked): the client's default keeps the sign bit, which puts
 * some keys on another partition than a kafkajs service would, and a key's events out of order.
 */
export function createPlatformaticProducer(config: PlatformaticClientConfig): PlatformaticProducer {
  const { compatibilityPartitioner, Producer, ProduceAcks, stringSerializer } = platformaticKafka();
  return new Producer({
    ...baseOptions(config),
    idempotent: true,
    acks: ProduceAcks.ALL,
    autocreateTopics: false,
    partitioner: compatibilityPartitioner,
    serializers: {
      key: stringSerializer,
      value: bytes,
      headerKey: stringSerializer,
      headerValue: stringSerializer,
    },
  });
}
