import { DeadLetterHeaders, defineTopic, EventSchemaError, TopicSpec } from '@fleet/contracts';
import { waitFor } from '@fleet/testing';
import { IsInt, IsString, Min } from 'class-validator';
import { EventBatch } from './message';
import {
  inProcessTransport,
  kafkaTransport,
  TransportHarness,
  TransportUnderTest,
} from './test/transport-harness';

class ContractEventV1 {
  @IsString()
  stream!: string;

  @IsInt()
  @Min(0)
  seq!: number;
}

const contractTopic: TopicSpec<ContractEventV1> = defineTopic({
  name: 'contract.events.v1',
  payload: ContractEventV1,
  partitions: 4,
  cleanupPolicy: 'delete',
  retentionMs: 60 * 60 * 1000,
  keyDescription: 'stream',
});

/** `count` events per stream, interleaved across streams, keyed by stream. */
function events(streams: string[], count: number, firstSeq = 0) {
  return Array.from({ length: count }, (_, i) => firstSeq + i).flatMap((seq) =>
    streams.map((stream) => ({ key: stream, payload: { stream, seq } })),
  );
}

/** Records what a handler saw; a handler either records its whole batch or throws before recording. */
class Recorder {
  readonly seen: ContractEventV1[] = [];
  record(batch: EventBatch<ContractEventV1>): void {
    this.seen.push(...batch.events.map((event) => event.payload));
  }
  ids(): string[] {
    return this.seen.map((event) => `${event.stream}:${event.seq}`);
  }
  async waitForCount(count: number): Promise<void> {
    await waitFor(() => this.seen.length >= count, {
      description: `${count} events (have ${this.seen.length})`,
    });
  }
}

const transports: TransportUnderTest[] = [inProcessTransport, kafkaTransport];

describe.each(transports)('event transport contract: $name', (transport) => {
  let harness: TransportHarness;

  beforeEach(async () => {
    harness = await transport.create([contractTopic as TopicSpec<object>]);
  });

  afterEach(async () => {
    await harness.close();
  });

  it('delivers the events of one key in the order they were published', async () => {
    const recorder = new Recorder();
    await harness.consume(contractTopic, 'ordering', async (batch) => recorder.record(batch), {
      maxBatchSize: 7,
    });
    const streams = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (let round = 0; round < 5; round++) {
      await harness.publisher.publish(contractTopic, events(streams, 20, round * 20));
    }
    await recorder.waitForCount(600);
    for (const stream of streams) {
      const seqs = recorder.seen.filter((event) => event.stream === stream).map((event) => event.seq);
      expect(seqs).toEqual(Array.from({ length: 100 }, (_, i) => i));
    }
  });

  it('gives every consumer group every event', async () => {
    const billing = new Recorder();
    const audit = new Recorder();
    await harness.consume(contractTopic, 'billing', async (batch) => billing.record(batch));
    await harness.consume(contractTopic, 'audit', async (batch) => audit.record(batch));
    await harness.publisher.publish(contractTopic, events(['x', 'y', 'z'], 30));
    await billing.waitForCount(90);
    await audit.waitForCount(90);
    expect(new Set(billing.ids()).size).toBe(90);
    expect(new Set(audit.ids()).size).toBe(90);
  });

  it('shares the partitions of a topic among the members of one group', async () => {
    const first = new Recorder();
    const second = new Recorder();
    await harness.consume(contractTopic, 'shared', async (batch) => first.record(batch));
    await harness.consume(contractTopic, 'shared', async (batch) => second.record(batch));
    const streams = Array.from({ length: 16 }, (_, i) => `s${i}`);
    await harness.publisher.publish(contractTopic, events(streams, 10));
    await waitFor(() => new Set([...first.ids(), ...second.ids()]).size === 160, {
      description: 'all 160 events',
    });
    expect(first.seen.length).toBeGreaterThan(0);
    expect(second.seen.length).toBeGreaterThan(0);
    // Each stream is owned by one member at a time: no stream is split between them.
    const firstStreams = new Set(first.seen.map((event) => event.stream));
    const secondStreams = new Set(second.seen.map((event) => event.stream));
    expect([...firstStreams].filter((stream) => secondStreams.has(stream))).toEqual([]);
  });

  it('redelivers events whose handler failed, before the events that follow them', async () => {
    const recorder = new Recorder();
    let failuresLeft = 2;
    await harness.consume(contractTopic, 'redelivery', async (batch) => {
      if (failuresLeft > 0 && batch.events.some((event) => event.payload.seq === 5)) {
        failuresLeft--;
        throw new Error('database briefly unavailable');
      }
      recorder.record(batch);
    });
    await harness.publisher.publish(contractTopic, events(['only'], 10));
    await recorder.waitForCount(10);
    expect(failuresLeft).toBe(0);
    // A failed batch records nothing, so each event appears once, in order, 5 only after its retries.
    expect(recorder.seen.map((event) => event.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('dead-letters an event that keeps failing, after bounded retries, and goes on with the rest', async () => {
    const recorder = new Recorder();
    let poisonAttempts = 0;
    await harness.consume(contractTopic, 'poison', async (batch) => {
      if (batch.events.some((event) => event.payload.seq === 3)) {
        if (batch.events.length === 1) poisonAttempts++;
        throw new Error('cannot handle seq 3');
      }
      recorder.record(batch);
    });
    await harness.publisher.publish(contractTopic, events(['p'], 8));
    const [letter] = await harness.deadLetters(contractTopic, 1);
    await harness.publisher.publish(contractTopic, events(['p'], 2, 8));
    await recorder.waitForCount(9);

    expect(recorder.seen.map((event) => event.seq)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
    expect(JSON.parse(letter.value)).toEqual({ stream: 'p', seq: 3 });
    expect(letter.key).toBe('p');
    expect(letter.headers[DeadLetterHeaders.sourceTopic]).toBe(contractTopic.name);
    expect(letter.headers[DeadLetterHeaders.consumerGroup]).toBe('poison');
    expect(letter.headers[DeadLetterHeaders.error]).toContain('cannot handle seq 3');
    expect(poisonAttempts).toBe(3);
  });

  it('dead-letters messages that break the schema without calling the handler', async () => {
    const recorder = new Recorder();
    await harness.consume(contractTopic, 'schema', async (batch) => recorder.record(batch));
    await harness.publishRaw(contractTopic as TopicSpec<object>, 'q', '{not json');
    await harness.publishRaw(
      contractTopic as TopicSpec<object>,
      'q',
      JSON.stringify({ stream: 'q', seq: -1 }),
    );
    await harness.publisher.publish(contractTopic, events(['q'], 1));
    await recorder.waitForCount(1);
    const letters = await harness.deadLetters(contractTopic, 2);

    expect(recorder.seen).toEqual([{ stream: 'q', seq: 0 }]);
    expect(letters.map((letter) => letter.headers[DeadLetterHeaders.error])).toEqual([
      expect.stringContaining('not valid JSON'),
      expect.stringContaining('seq'),
    ]);
  });

  it('refuses to publish a payload that breaks the schema, and publishes nothing of that call', async () => {
    const recorder = new Recorder();
    await harness.consume(contractTopic, 'refuse', async (batch) => recorder.record(batch));
    const invalid = { key: 'r', payload: { stream: 'r', seq: 'one' } as unknown as ContractEventV1 };
    await expect(
      harness.publisher.publish(contractTopic, [{ key: 'r', payload: { stream: 'r', seq: 0 } }, invalid]),
    ).rejects.toBeInstanceOf(EventSchemaError);
    await harness.publisher.publish(contractTopic, [{ key: 'r', payload: { stream: 'r', seq: 1 } }]);
    await recorder.waitForCount(1);
    expect(recorder.seen).toEqual([{ stream: 'r', seq: 1 }]);
  });

  it('resumes a group from its committed position after the consumer restarts', async () => {
    const before = new Recorder();
    const consumer = await harness.consume(contractTopic, 'resume', async (batch) => before.record(batch));
    await harness.publisher.publish(contractTopic, events(['m', 'n'], 10));
    await before.waitForCount(20);
    await consumer.stop();

    await harness.publisher.publish(contractTopic, events(['m', 'n'], 10, 10));
    const after = new Recorder();
    await harness.consume(contractTopic, 'resume', async (batch) => after.record(batch));
    await after.waitForCount(20);
    expect(after.seen.every((event) => event.seq >= 10)).toBe(true);
    expect(new Set(after.ids()).size).toBe(20);
  });
});
