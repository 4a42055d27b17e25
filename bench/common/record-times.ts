/**
 * When events reached Kafka: a consumer of one topic of the run's namespace, from its beginning, that
 * keeps each record's broker timestamp (epoch ms) under the key the bench matches it by. The benches
 * that break a delay down (command sent → on Kafka → handed, alert fired → on Kafka → delivered) read
 * the middle step from here.
 */
import { TopicSpec } from '@fleet/contracts';
import { namespaced } from '@fleet/platform';
import { Kafka } from 'kafkajs';

export interface RecordTimes {
  /** The record timestamp of each key seen so far (the last one, for a key seen twice). */
  at: Map<string, number>;
  /** Disconnects the consumer. */
  stop(): Promise<void>;
}

/**
 * Starts reading `topic` in `namespace` with the consumer group `<namespace>.<group>`; `keyOf` names
 * a record by its decoded JSON payload.
 */
export async function recordTimes<T extends object>(
  kafka: Kafka,
  namespace: string,
  options: { topic: TopicSpec<T>; group: string; keyOf: (payload: T) => string },
): Promise<RecordTimes> {
  const at = new Map<string, number>();
  const consumer = kafka.consumer({ groupId: `${namespace}.${options.group}` });
  await consumer.connect();
  await consumer.subscribe({ topic: namespaced({ namespace }, options.topic.name), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const payload = JSON.parse(message.value!.toString()) as T;
      at.set(options.keyOf(payload), Number(message.timestamp));
    },
  });
  return { at, stop: () => consumer.disconnect() };
}
