import { deadLetterTopicName, TopicSpec } from '@fleet/contracts';
import { Logger } from '@nestjs/common';
import { FleetMetrics } from '../../metrics/fleet-metrics';
import { deadLetterHeaders, deliverBatch, RetryPolicy } from '../delivery';
import { EventServer } from '../event-server';
import { InProcessBroker } from './in-process-broker';

/** Runs the app's `@ConsumeEvents` handlers on the in-process broker (embedded mode). */
export class InProcessEventServer extends EventServer {
  private readonly log = new Logger('InProcessEventServer');
  private unsubscribers: (() => Promise<void>)[] = [];
  private stopping = false;

  constructor(
    private readonly broker: InProcessBroker,
    private readonly retryPolicy?: RetryPolicy,
    private readonly metrics?: FleetMetrics,
  ) {
    super();
  }

  listen(callback: () => void): void {
    for (const consumer of this.consumerRegistrations()) {
      const topic: TopicSpec<object> = consumer.topic;
      const unsubscribe = this.broker.subscribe(
        topic.name,
        consumer.group,
        (batch) =>
          deliverBatch(
            batch,
            {
              topic,
              group: consumer.group,
              handle: (events) => consumer.invoke(events, batch.partition),
              deadLetter: async (source, partition, letters) => {
                await this.broker.append(
                  deadLetterTopicName(source),
                  letters.map((letter) => ({
                    key: letter.message.key ?? '',
                    value: letter.message.value?.toString() ?? '',
                    headers: deadLetterHeaders(source, partition, consumer.group, letter),
                  })),
                );
                this.metrics?.deadLetters.inc({ topic: source }, letters.length);
                this.log.warn({
                  msg: 'dead-lettered',
                  topic: source,
                  group: consumer.group,
                  count: letters.length,
                });
              },
              onRetry: (error, failures) =>
                this.log.warn({
                  msg: 'handler failed',
                  topic: topic.name,
                  group: consumer.group,
                  failures,
                  err: error,
                }),
              isStopping: () => this.stopping,
            },
            this.retryPolicy,
          ),
        {
          fromBeginning: consumer.fromBeginning,
          maxBatchSize: consumer.maxBatchSize,
          // A per-process projection is rebuilt from the topic at every start, as on Kafka.
          ephemeral: consumer.perProcess,
        },
      );
      this.unsubscribers.push(unsubscribe);
    }
    callback();
  }

  async close(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.unsubscribers.map((unsubscribe) => unsubscribe()));
    this.unsubscribers = [];
  }

  unwrap<T>(): T {
    return this.broker as T;
  }
}
