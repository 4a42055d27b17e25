import { randomUUID } from 'node:crypto';
import { PositionReportedV1, Topics } from '@fleet/contracts';
import { createTestKafka, TestContext, testKafkaBrokers, uniqueNamespace, waitFor } from '@fleet/testing';
import { Controller, Injectable, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsumeEvents } from './consume-events.decorator';
import { EventBatch, EventPublisher } from './message';

@Injectable()
class Seen {
  readonly byGroup: Record<'first' | 'second', string[]> = { first: [], second: [] };
}

@Controller()
class FirstGroup {
  constructor(private readonly seen: Seen) {}

  @ConsumeEvents(Topics.positions, { group: 'event-server-first' })
  on(@Payload() batch: EventBatch<PositionReportedV1>): void {
    this.seen.byGroup.first.push(...batch.events.map((event) => event.payload.eventId));
  }
}

@Controller()
class SecondGroup {
  constructor(private readonly seen: Seen) {}

  @ConsumeEvents(Topics.positions, { group: 'event-server-second' })
  on(@Payload() batch: EventBatch<PositionReportedV1>): void {
    this.seen.byGroup.second.push(...batch.events.map((event) => event.payload.eventId));
  }
}

@Module({ controllers: [FirstGroup, SecondGroup], providers: [Seen] })
class TwoGroups {}

const GROUPS = ['event-server-first', 'event-server-second'];

/**
 * Resolves once both groups have committed every partition of the positions topic up to its end:
 * each handler has taken every event published so far (commits follow the handler).
 */
async function kafkaIdle(namespace: string): Promise<void> {
  const admin = createTestKafka(namespace).admin();
  await admin.connect();
  const topic = `${namespace}.${Topics.positions.name}`;
  try {
    await waitFor(
      async () => {
        const ends = await admin.fetchTopicOffsets(topic);
        for (const group of GROUPS) {
          const [committed] = await admin.fetchOffsets({ groupId: `${namespace}.${group}`, topics: [topic] });
          const at = new Map(committed.partitions.map((p) => [p.partition, p.offset]));
          if (ends.some((end) => end.high !== '0' && at.get(end.partition) !== end.high)) return false;
        }
        return true;
      },
      { description: 'both groups to commit every event' },
    );
  } finally {
    await admin.disconnect();
  }
}

interface Transport {
  name: string;
  env(): Record<string, string>;
  /** Resolves once every message published so far has been handled by every group. */
  idle(context: TestContext, env: Record<string, string>): Promise<void>;
}

const kafka = (client: string): Transport => ({
  name: `kafka (${client})`,
  env: () => ({
    MESSAGING_TRANSPORT: 'kafka',
    KAFKA_BROKERS: testKafkaBrokers().join(','),
    KAFKA_NAMESPACE: uniqueNamespace('event-server'),
    KAFKA_CLIENT: client,
  }),
  idle: (_context, env) => kafkaIdle(env.KAFKA_NAMESPACE),
});

const transports: Transport[] = [
  { name: 'in-process', env: () => ({}), idle: (context) => context.transportIdle() },
  kafka('kafkajs'),
  kafka('platformatic'),
];

/**
 * Two services of one process (the embedded app) consuming one topic, each in its own group: each
 * handler gets every event exactly once. Nest chains the handlers of one pattern and calls the next
 * one with each; the event server must not, or the second group got the first group's batches too.
 */
describe.each(transports)('event server: two groups of one topic in one app ($name)', (transport) => {
  let context: TestContext;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = transport.env();
    context = await TestContext.start({ modules: () => [TwoGroups], fixtures: [], env });
  });

  afterAll(async () => {
    await context?.close();
  });

  it('hands each group every event once', async () => {
    const ids = Array.from({ length: 50 }, () => randomUUID());
    await context.app.get(EventPublisher).publish(
      Topics.positions,
      ids.map((eventId, index) => ({
        key: String((index % 5) + 1),
        payload: {
          eventId,
          vehicleId: (index % 5) + 1,
          imei: '350000000000001',
          fixTime: new Date(1.79e12 + index * 1000).toISOString(),
          receivedAt: new Date(1.79e12 + index * 1000).toISOString(),
          lat: 52.5,
          lng: 13.4,
        },
      })),
    );
    const seen = context.app.get(Seen).byGroup;
    await waitFor(() => seen.first.length >= 50 && seen.second.length >= 50, {
      description: 'both groups to see the 50 events',
    });
    await transport.idle(context, env);
    expect([...seen.first].sort()).toEqual([...ids].sort());
    expect([...seen.second].sort()).toEqual([...ids].sort());
  });
});
