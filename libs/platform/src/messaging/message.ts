import { TopicSpec } from '@fleet/contracts';

export type MessageHeaders = Record<string, string>;

/** What a service hands to the publisher. */
export interface OutgoingEvent<T extends object> {
  /** Decides the partition: events with one key are consumed in the order they were published. */
  key: string;
  payload: T;
  headers?: MessageHeaders;
}

/** A message as a transport delivers it, before decoding. */
export interface RawMessage {
  key: string | null;
  value: Buffer | string | null;
  headers: MessageHeaders;
  /** Position in its partition, as a decimal string (Kafka offsets exceed 2^53 in theory). */
  offset: string;
}

export interface RawBatch {
  topic: string;
  partition: number;
  messages: readonly RawMessage[];
}

/** A decoded, validated event handed to a handler. */
export interface ConsumedEvent<T extends object> {
  key: string;
  payload: T;
  headers: MessageHeaders;
  partition: number;
  offset: string;
}

/**
 * What a handler receives: consecutive events of one partition, in order.
 * Handlers are idempotent (events may be redelivered after a crash or a failed attempt).
 */
export interface EventBatch<T extends object> {
  topic: string;
  partition: number;
  group: string;
  events: readonly ConsumedEvent<T>[];
}

/** Publishes events; resolves only once the transport holds them (Kafka: acknowledged by all in-sync replicas). */
export abstract class EventPublisher {
  abstract publish<T extends object>(topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]): Promise<void>;
}
