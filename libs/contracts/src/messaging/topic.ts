/** What every producer and consumer of a topic agree on. Provisioned explicitly; brokers never auto-create. */
export interface TopicSpec<TPayload extends object> {
  /** Versioned name: a breaking payload change gets a new topic (`.v2`), never an in-place edit. */
  readonly name: string;
  /** The payload class; its class-validator decorators are the schema checked on produce and on consume. */
  readonly payload: new () => TPayload;
  /** Fixed at creation: the message key decides the partition, so changing it breaks per-key ordering. */
  readonly partitions: number;
  /** `compact` keeps the latest message per key forever (snapshots); `delete` drops by age (facts). */
  readonly cleanupPolicy: 'compact' | 'delete';
  /** For `delete` topics: how long messages are kept. */
  readonly retentionMs?: number;
  /** What the message key is, for readers of the catalog. */
  readonly keyDescription: string;
  /**
   * A faster equivalent of the payload class's decorators, for high-volume topics: returns the
   * problems and the payload with unknown fields dropped. Must agree with the decorators (tested).
   */
  readonly check?: (plain: Record<string, unknown>) => { problems: string[]; event: TPayload };
}

export function defineTopic<TPayload extends object>(spec: TopicSpec<TPayload>): TopicSpec<TPayload> {
  return Object.freeze(spec);
}

/** Messages that could not be processed after bounded retries land here, with the reason in headers. */
export function deadLetterTopicName(topicName: string): string {
  return `${topicName}.dlt`;
}

/** Header names every transport sets on dead-lettered messages. */
export const DeadLetterHeaders = {
  sourceTopic: 'x-dlt-source-topic',
  sourcePartition: 'x-dlt-source-partition',
  sourceOffset: 'x-dlt-source-offset',
  consumerGroup: 'x-dlt-consumer-group',
  attempts: 'x-dlt-attempts',
  error: 'x-dlt-error',
} as const;
