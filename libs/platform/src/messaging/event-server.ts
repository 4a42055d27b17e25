import { BaseRpcContext, CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { ConsumerExtras } from './consume-events.decorator';
import { ConsumedEvent, EventBatch } from './message';

/** The context argument (`@Ctx()`) of an event handler. */
export class EventContext extends BaseRpcContext<[group: string, topic: string, partition: number]> {
  get group(): string {
    return this.args[0];
  }
  get topic(): string {
    return this.args[1];
  }
  get partition(): number {
    return this.args[2];
  }
}

/** One (group, topic) subscription found among the app's `@ConsumeEvents` handlers. */
export interface ConsumerRegistration extends ConsumerExtras {
  invoke(events: readonly ConsumedEvent<object>[], partition: number): Promise<void>;
}

/**
 * The part both transports share: finding the `@ConsumeEvents` handlers Nest registered and invoking
 * them so that a thrown error (which Nest turns into an erroring Observable) reaches the delivery loop.
 */
export abstract class EventServer extends Server implements CustomTransportStrategy {
  protected consumerRegistrations(): ConsumerRegistration[] {
    const registrations: ConsumerRegistration[] = [];
    const seen = new Set<string>();
    for (const head of this.messageHandlers.values()) {
      const chain: MessageHandler[] = [];
      for (let handler: MessageHandler | undefined = head; handler; handler = handler.next)
        chain.push(handler);
      for (const handler of chain) {
        // Nest chains the handlers of one pattern (the topic) and calls each one's `next` with it. Here
        // every handler has its own subscription (its group), so it must run alone: chained, a second
        // group's handler got every batch of the first group's as well.
        handler.next = undefined;
        const extras = handler.extras as ConsumerExtras | undefined;
        if (!handler.isEventHandler || !extras?.topic || !extras.group) continue;
        const id = `${extras.group}/${extras.topic.name}`;
        if (seen.has(id)) {
          throw new Error(
            `two handlers consume ${extras.topic.name} in group ${extras.group}; give one its own group`,
          );
        }
        seen.add(id);
        const bound = handler;
        registrations.push({
          ...extras,
          invoke: async (events, partition) => {
            const batch: EventBatch<object> = {
              topic: extras.topic.name,
              partition,
              group: extras.group,
              events,
            };
            const context = new EventContext([extras.group, extras.topic.name, partition]);
            const result = await bound(batch, context);
            await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
          },
        });
      }
    }
    return registrations;
  }

  // Nest's status events are not used by these transports.
  on(): void {
    throw new Error('event listeners are not supported by this transport');
  }
}
