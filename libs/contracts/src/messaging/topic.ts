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
  /**
   * Several events of one key published together may travel as one message: a JSON array of the
   * events, in order, with {@link EventCountHeader}. Consumers hand them out as separate events
   * (sharing the message's offset). For high-volume topics whose producers publish runs of one key at
   * once (a tracker packet's records): the broker client's work per message is then per run
   * (docs/decisions/0018-grouped-messages.md). Consumers must be deployed first: one that predates
   * this reads an array as a poison message.
   */
  readonly groupsEventsOfAKey?: boolean;
}

export function defineTopic<TPayload extends object>(spec: TopicSpec<TPayload>): TopicSpec<TPayload> {
  return Object.freeze(spec);
}

/** Messages that could not be processed after bounded retries land here, with the reason in headers. */
export function deadLetterTopicName(topicName: string): string {
  return `${topicName}.dlt`;
}

/**
 * The number of events a grouped message holds (see {@link TopicSpec.groupsEventsOfAKey}); absent on a
 * message of one event. Lets a consumer size its chunks in events without decoding first.
 */
export const EventCountHeader = 'x-event-count';

/** Header names every transport sets on dead-lettered messages. */
export const DeadLetterHeaders = {
  sourceTopic: 'x-dlt-source-topic',
  sourcePartition: 'x-dlt-source-partition',
  sourceOffset: 'x-dlt-source-offset',
  consumerGroup: 'x-dlt-consumer-group',
  attempts: 'x-dlt-attempts',
  error: 'x-dlt-error',
} as const;
