import { TopicSpec } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller, Module, Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';

/** What a collector gathered: every payload of its topic, in the order its group handled them. */
export interface EventCollector<T extends object> {
  readonly events: T[];
}

/**
 * A module to add to a test context's modules that consumes `topic` in a consumer group of its own and
 * keeps every payload, for tests that observe what the services under test publish:
 *
 *   const Results = collectEvents(Topics.commandResults);
 *   ... modules: [..., Results.module]
 *   await ctx.transportIdle();
 *   expect(ctx.app.get(Results.collector).events).toEqual([...]);
 */
export function collectEvents<T extends object>(
  topic: TopicSpec<T>,
  group = `test-collector.${topic.name}`,
): { module: Type; collector: Type<EventCollector<T>> } {
  @Controller()
  class Collector implements EventCollector<T> {
    readonly events: T[] = [];

    @ConsumeEvents(topic, { group })
    async collect(@Payload() batch: EventBatch<T>): Promise<void> {
      this.events.push(...batch.events.map((event) => event.payload));
    }
  }

  @Module({ controllers: [Collector] })
  class CollectorModule {}

  return { module: CollectorModule, collector: Collector };
}
