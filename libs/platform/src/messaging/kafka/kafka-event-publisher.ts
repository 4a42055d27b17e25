import { CompressionTypes, Producer } from 'kafkajs';
import { KafkaRecord, TracedKafkaPublisher } from '../kafka-common/traced-publisher';

/** Publishes with kafkajs' idempotent producer, acks from all in-sync replicas (see TracedKafkaPublisher). */
export class KafkaEventPublisher extends TracedKafkaPublisher {
  constructor(
    private readonly producer: Producer,
    namespace?: string,
  ) {
    super(namespace);
  }

  protected async send(topic: string, messages: KafkaRecord[]): Promise<void> {
    await this.producer.send({ topic, messages, acks: -1, compression: CompressionTypes.None });
  }
}
