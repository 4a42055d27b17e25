import { encodeEvent, TopicSpec } from '@fleet/contracts';
import { EventPublisher, OutgoingEvent } from '../message';
import { InProcessBroker } from './in-process-broker';

export class InProcessEventPublisher extends EventPublisher {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  async publish<T extends object>(topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]): Promise<void> {
    // Encode everything first: one invalid payload rejects the whole call and nothing is appended.
    const records = events.map((event) => ({
      key: event.key,
      value: encodeEvent(topic, event.payload),
      headers: event.headers,
    }));
    // Resolves once the broker holds them (the durable broker: committed to PostgreSQL).
    await this.broker.append(topic.name, records);
  }
}
