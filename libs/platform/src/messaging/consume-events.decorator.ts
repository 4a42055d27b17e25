import { TopicSpec } from '@fleet/contracts';
import { applyDecorators, UseFilters } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { EventErrorFilter } from './event-error.filter';

export interface ConsumerOptions {
  /** Consumer group: every group gets every message; members of one group share the partitions. */
  group: string;
  /** Where a group with no committed position starts: the oldest retained message, or only new ones. */
  fromBeginning?: boolean;
  /** Most events handed to one handler call. */
  maxBatchSize?: number;
  /**
   * Every process is its own group member of one: for in-memory projections that each replica must
   * build from the whole topic. The group name gets a per-process suffix; it reads from the beginning.
   */
  perProcess?: boolean;
}

/** What the transports read back from a handler registered with {@link ConsumeEvents}. */
export interface ConsumerExtras extends Required<ConsumerOptions> {
  topic: TopicSpec<object>;
}

/**
 * Marks a controller method as the handler of a topic for a consumer group. The method receives an
 * `EventBatch` of decoded, validated payloads. Throwing makes the transport retry the batch, then
 * isolate and dead-letter the event that keeps failing. The same handler runs on Kafka and in-process.
 */
export function ConsumeEvents<T extends object>(
  topic: TopicSpec<T>,
  options: ConsumerOptions,
): MethodDecorator {
  const extras: ConsumerExtras = {
    topic: topic as TopicSpec<object>,
    group: options.group,
    fromBeginning: options.perProcess ? true : (options.fromBeginning ?? true),
    maxBatchSize: options.maxBatchSize ?? 500,
    perProcess: options.perProcess ?? false,
  };
  return applyDecorators(
    EventPattern(topic.name, extras as unknown as Record<string, unknown>),
    // On the handler itself: a hybrid app's microservice is initialised with the app, too early for
    // global filters, and Nest's default filter would hide what failed.
    UseFilters(EventErrorFilter),
  );
}
