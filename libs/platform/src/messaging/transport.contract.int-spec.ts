import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DeadLetterHeaders, defineTopic, EventSchemaError, TopicSpec } from '@fleet/contracts';
import { createTestDatabase, repoRoot, TestDatabase, waitFor } from '@fleet/testing';
import { IsInt, IsString, Min } from 'class-validator';
import { InProcessBroker } from './in-process/in-process-broker';
import { PostgresBrokerStore } from './in-process/postgres-broker.store';
import { EventBatch } from './message';
import {
  durableInProcessTransport,
  inProcessTransport,
  kafkaNextTransport,
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

/** The same events on a topic that groups a key's events into one message (Kafka transports). */
const runsTopic: TopicSpec<ContractEventV1> = defineTopic({
  ...contractTopic,
  name: 'contract.runs.v1',
  groupsEventsOfAKey: true,
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

const transports: TransportUnderTest[] = [
  inProcessTransport,
  durableInProcessTransport,
  kafkaTransport,
  kafkaNextTransport,
];

describe.each(transports)('event transport contract: $name', (transport) => {
  let harness: TransportHarness;

  beforeEach(async () => {
    harness = await transport.create([contractTopic, runsTopic] as TopicSpec<object>[]);
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

  it('delivers grouped events once each, in the order of their key, in chunks of whole messages', async () => {
    const recorder = new Recorder();
    const chunks: number[] = [];
    await harness.consume(
      runsTopic,
      'runs',
      async (batch) => {
        chunks.push(batch.events.length);
        recorder.record(batch);
      },
      { maxBatchSize: 30 },
    );
    const streams = ['a', 'b', 'c'];
    // Each publish holds 20 events of each stream: one message per stream on the Kafka transports.
    for (let round = 0; round < 4; round++) {
      await harness.publisher.publish(runsTopic, events(streams, 20, round * 20));
    }
    await recorder.waitForCount(240);
    for (const stream of streams) {
      const seqs = recorder.seen.filter((event) => event.stream === stream).map((event) => event.seq);
      expect(seqs).toEqual(Array.from({ length: 80 }, (_, i) => i));
    }
    expect(Math.max(...chunks)).toBeLessThanOrEqual(30);
  });

  it('dead-letters the one event of a grouped message that keeps failing, and handles the rest', async () => {
    const recorder = new Recorder();
    await harness.consume(runsTopic, 'runs-poison', async (batch) => {
      if (batch.events.some((event) => event.payload.seq === 3)) throw new Error('cannot handle seq 3');
      recorder.record(batch);
    });
    await harness.publisher.publish(runsTopic, events(['p'], 8));
    const [letter] = await harness.deadLetters(runsTopic, 1);
    await recorder.waitForCount(7);
    expect(recorder.seen.map((event) => event.seq)).toEqual([0, 1, 2, 4, 5, 6, 7]);
    expect(JSON.parse(letter.value)).toEqual({ stream: 'p', seq: 3 });
    expect(letter.key).toBe('p');
    expect(letter.headers[DeadLetterHeaders.sourceTopic]).toBe(runsTopic.name);
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

/** As in test/durable-publisher.child.ts. */
const killTopic = { name: 'contract.kill.v1', partitions: 4, publishers: 8 };

interface ChildOutput {
  /** Ids whose append resolved, in the order the child printed them. */
  acked: string[];
  /** Ids the child's consumer handled (with `--consume`). */
  handled: string[];
  /** The child's broker deleted consumed messages at least once (with `--consume`). */
  deleted: boolean;
}

/**
 * Runs test/durable-publisher.child.ts until `enough` says so, then kills it with SIGKILL while its
 * publishers still append: some appends are in flight at that moment.
 */
async function killChildWhen(
  database: TestDatabase,
  args: string[],
  enough: (output: ChildOutput) => boolean,
): Promise<ChildOutput> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register', join(__dirname, 'test/durable-publisher.child.ts'), database.url, ...args],
    {
      cwd: repoRoot,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: ChildOutput = { acked: [], handled: [], deleted: false };
  let stderr = '';
  let pending = '';
  let killed = false;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    // Only whole lines count: a line is printed after its append resolved.
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const [kind, ...ids] = line.split(' ');
      if (kind === 'acked') output.acked.push(...ids);
      if (kind === 'handled') output.handled.push(...ids);
      if (kind === 'deleted') output.deleted = true;
    }
    if (!killed && enough(output)) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  const exit = await new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  if (!killed) throw new Error(`the child exited by itself (${exit}):\n${stderr}`);
  expect(exit).toBe('SIGKILL');
  // A statement the child sent just before the kill (an offset commit, a delete) still runs to its
  // end in PostgreSQL: what the test reads next must come after it, so wait until the child's
  // connections (application_name kill-test-child) are gone.
  await waitFor(
    async () => {
      const { rows } = await database.pool.query<{ open: number }>(
        `SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = 'kill-test-child'`,
      );
      return rows[0].open === 0;
    },
    { description: "the killed child's PostgreSQL connections to close" },
  );
  return output;
}

async function reopen(databaseUrl: string): Promise<InProcessBroker> {
  const store = await PostgresBrokerStore.connect(databaseUrl, { applicationName: 'kill-test' });
  const broker = await InProcessBroker.open(store, { redeliveryDelayMs: 20 });
  broker.createTopic(killTopic.name, killTopic.partitions);
  return broker;
}

/** Sequence numbers of one publisher's ids, in the order given. */
function seqsOf(ids: readonly string[], publisher: number): number[] {
  return ids.filter((id) => id.startsWith(`${publisher}:`)).map((id) => Number(id.split(':')[1]));
}

describe('event transport contract: in-process (durable), process killed', () => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase();
  });

  afterEach(async () => {
    await database.drop();
  });

  it('delivers after a restart every message acknowledged before SIGKILL, in order', async () => {
    const child = await killChildWhen(database, [], (output) => output.acked.length >= 3_000);

    const broker = await reopen(database.url);
    const delivered: string[] = [];
    broker.subscribe(killTopic.name, 'after-restart', async (batch) => {
      delivered.push(...batch.messages.map((message) => String(message.value)));
    });
    await broker.idle();
    await broker.close();

    const seen = new Set(delivered);
    expect(child.acked.filter((id) => !seen.has(id))).toEqual([]);
    for (let publisher = 0; publisher < killTopic.publishers; publisher++) {
      // A publisher appends one call after the other: what is stored is a prefix of its ids, in order
      // and once each, at least as long as what it saw acknowledged (the call in flight may be there).
      const seqs = seqsOf(delivered, publisher);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i));
      expect(seqs.length).toBeGreaterThanOrEqual(seqsOf(child.acked, publisher).length);
    }
  });

  it('resumes a group from the position it committed before SIGKILL, having deleted only what it committed', async () => {
    const child = await killChildWhen(
      database,
      ['--consume', 'sink'],
      (output) => output.acked.length >= 3_000 && output.handled.length >= 1_000 && output.deleted,
    );
    const committed = new Map<number, number>(
      (
        await database.pool.query<{ partition: number; next_offset: string }>(
          `SELECT partition, next_offset FROM in_process_broker.group_offsets WHERE group_id = 'sink'`,
        )
      ).rows.map((row) => [row.partition, Number(row.next_offset)]),
    );
    const { rows: starts } = await database.pool.query<{ start: string }>(
      `SELECT min("offset") AS start FROM in_process_broker.messages GROUP BY partition`,
    );
    // The child's maintenance deleted consumed messages before the kill: that is what is tested here.
    expect(starts.some((row) => Number(row.start) > 0)).toBe(true);

    const broker = await reopen(database.url);
    const delivered: string[] = [];
    const firstOffset = new Map<number, number>();
    broker.subscribe(killTopic.name, 'sink', async (batch) => {
      if (!firstOffset.has(batch.partition))
        firstOffset.set(batch.partition, Number(batch.messages[0].offset));
      delivered.push(...batch.messages.map((message) => String(message.value)));
    });
    await broker.idle();
    await broker.close();

    for (const [partition, offset] of firstOffset)
      expect([partition, offset]).toEqual([partition, committed.get(partition) ?? 0]);
    const seen = new Set([...child.handled, ...delivered]);
    expect(child.acked.filter((id) => !seen.has(id))).toEqual([]);
  });
});
