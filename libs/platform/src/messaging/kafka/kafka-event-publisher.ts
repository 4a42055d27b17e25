import { encodeEvent, TopicSpec } from '@fleet/contracts';
import { CompressionTypes, Producer } from 'kafkajs';
import { namespaced } from '../../config/service-config';
import { EventPublisher, OutgoingEvent } from '../message';

/**
 * Publishes with the idempotent producer and acks from all in-sync replicas, so that a resolved
 * `publish` means the broker has the events durably, in key order, without duplicates from retries.
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
    const messages = events.map((event) => ({
      key: event.key,
      value: encodeEvent(topic, event.payload),
      headers: event.headers,
    }));
    await this.producer.send({
      topic: namespaced({ namespace: this.namespace }, topic.name),
      messages,
      acks: -1,
      compression: CompressionTypes.None,
    });
  }
}
