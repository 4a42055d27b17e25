import { KafkaRecord, TracedKafkaPublisher } from '../kafka-common/traced-publisher';
import { PlatformaticProducer } from './platformatic-client';
import { platformaticKafka } from './platformatic-kafka';

/** Publishes with @platformatic/kafka's idempotent producer, acks from all in-sync replicas (see TracedKafkaPublisher). */
export class PlatformaticEventPublisher extends TracedKafkaPublisher {
  constructor(
    private readonly producer: PlatformaticProducer,
    namespace?: string,
  ) {
    super(namespace);
  }

  protected async send(topic: string, records: KafkaRecord[]): Promise<void> {
    await this.producer.send({
      messages: records.map((record) => ({ topic, ...record })),
      acks: platformaticKafka().ProduceAcks.ALL,
    });
  }
}
