import { defineTopic, EventCountHeader } from '@fleet/contracts';
import { IsInt } from 'class-validator';
import {
  chunkByEvents,
  DeadLetter,
  DeliveryAbortedError,
  deliverBatch,
  isPermanentError,
  isTransientError,
} from './delivery';
import { ConsumedEvent, MessageHeaders, RawMessage } from './message';

class Numbered {
  @IsInt()
  n!: number;
}
const topic = defineTopic({
  name: 'unit.numbered.v1',
  payload: Numbered,
  partitions: 1,
  cleanupPolicy: 'delete',
  keyDescription: 'n',
});
const groupingTopic = defineTopic({ ...topic, name: 'unit.numbered-runs.v1', groupsEventsOfAKey: true });
const policy = { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 2 };

/** A grouped message of the events `values`, as TracedKafkaPublisher sends it. */
const grouped = (offset: number, ...values: number[]): RawMessage => ({
  key: 'k',
  value: JSON.stringify(values.map((n) => ({ n }))),
  headers: { [EventCountHeader]: String(values.length), traceparent: 'tp' },
  offset: String(offset),
});

const messages = (...values: (number | string)[]): RawMessage[] =>
  values.map((value, offset) => ({
    key: 'k',
    value: typeof value === 'number' ? JSON.stringify({ n: value }) : value,
    headers: {},
    offset: String(offset),
  }));

/** A target that keeps failing any batch holding event 2, recording what it handled and dead-lettered. */
function failingOnTwo(onTopic: typeof topic) {
  const handled: number[] = [];
  const letters: DeadLetter[] = [];
  const target = {
    topic: onTopic,
    group: 'g',
    handle: async (events: readonly ConsumedEvent<Numbered>[]) => {
      if (events.some((event) => event.payload.n === 2)) throw new Error('bad 2');
      handled.push(...events.map((event) => event.payload.n));
    },
    deadLetter: async (_topic: string, _partition: number, batch: readonly DeadLetter[]) =>
      void letters.push(...batch),
  };
  return { target, handled, letters };
}

describe('deliverBatch', () => {
  it('hands the decoded batch to the handler once when it succeeds', async () => {
    const handle = jest.fn(async () => undefined);
    const deadLetter = jest.fn(async () => undefined);
    await deliverBatch(
      { topic: topic.name, partition: 0, messages: messages(1, 2) },
      { topic, group: 'g', handle, deadLetter },
      policy,
    );
    expect(handle).toHaveBeenCalledTimes(1);
    expect(handle.mock.calls[0]).toEqual([
      [expect.objectContaining({ payload: { n: 1 } }), expect.objectContaining({ payload: { n: 2 } })],
    ]);
    expect(deadLetter).not.toHaveBeenCalled();
  });

  it('retries transient failures without counting them toward the poison limit', async () => {
    let calls = 0;
    const handle = jest.fn(async () => {
      if (++calls <= 5) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    const deadLetter = jest.fn(async () => undefined);
    await deliverBatch(
      { topic: topic.name, partition: 0, messages: messages(1) },
      { topic, group: 'g', handle, deadLetter },
      policy,
    );
    expect(handle).toHaveBeenCalledTimes(6);
    expect(deadLetter).not.toHaveBeenCalled();
  });

  it('isolates and dead-letters only the event that keeps failing', async () => {
    const { target, handled, letters } = failingOnTwo(topic);
    await deliverBatch(
      { topic: topic.name, partition: 0, messages: messages(1, 2, 3, 'garbage') },
      target,
      policy,
    );
    expect(handled).toEqual([1, 3]);
    expect(letters.map((letter) => [letter.message.offset, String(letter.error)])).toEqual([
      ['3', expect.stringContaining('not valid JSON')],
      ['1', 'Error: bad 2'],
    ]);
  });

  it('dead-letters an event PostgreSQL cannot store at its first failure, without retrying it', async () => {
    const attempts = new Map<number, number>();
    const handled: number[] = [];
    const letters: DeadLetter[] = [];
    await deliverBatch(
      { topic: topic.name, partition: 0, messages: messages(1, 2, 3) },
      {
        topic,
        group: 'g',
        handle: async (events) => {
          for (const event of events) attempts.set(event.payload.n, (attempts.get(event.payload.n) ?? 0) + 1);
          if (events.some((event) => event.payload.n === 2)) {
            throw Object.assign(new Error('unsupported Unicode escape sequence'), { code: '22P05' });
          }
          handled.push(...events.map((event) => event.payload.n));
        },
        deadLetter: async (_topic, _partition, batch) => void letters.push(...batch),
      },
      { ...policy, maxAttempts: 5 },
    );
    expect(handled).toEqual([1, 3]);
    // Once in the whole batch, once alone: no backoff rounds for an event that can never succeed.
    expect(attempts.get(2)).toBe(2);
    expect(letters.map((letter) => [letter.message.offset, letter.attempts])).toEqual([['1', 2]]);
  });

  it('hands out every event of a grouped message, in order, with the message offset', async () => {
    const handle = jest.fn(async (_events: readonly ConsumedEvent<Numbered>[]) => undefined);
    await deliverBatch(
      {
        topic: groupingTopic.name,
        partition: 0,
        messages: [grouped(0, 1, 2), ...messages(3).map((m) => ({ ...m, offset: '1' }))],
      },
      { topic: groupingTopic, group: 'g', handle, deadLetter: jest.fn() },
      policy,
    );
    expect(handle.mock.calls[0][0]).toEqual([
      expect.objectContaining({ payload: { n: 1 }, offset: '0' }),
      expect.objectContaining({ payload: { n: 2 }, offset: '0' }),
      expect.objectContaining({ payload: { n: 3 }, offset: '1' }),
    ]);
  });

  it('dead-letters the one failing event of a grouped message as a message of its own', async () => {
    const { target, handled, letters } = failingOnTwo(groupingTopic);
    await deliverBatch(
      { topic: groupingTopic.name, partition: 0, messages: [grouped(7, 1, 2, 3)] },
      target,
      policy,
    );
    expect(handled).toEqual([1, 3]);
    expect(letters).toHaveLength(1);
    expect(letters[0].message).toEqual({
      key: 'k',
      value: '{"n":2}',
      headers: { traceparent: 'tp' },
      offset: '7',
    });
  });

  it('dead-letters a grouped message whole when one of its events cannot be decoded', async () => {
    const handle = jest.fn(async () => undefined);
    const letters: DeadLetter[] = [];
    const message = { ...grouped(4, 1), value: JSON.stringify([{ n: 1 }, { n: 'two' }]) };
    await deliverBatch(
      { topic: groupingTopic.name, partition: 0, messages: [message] },
      {
        topic: groupingTopic,
        group: 'g',
        handle,
        deadLetter: async (_t, _p, batch) => void letters.push(...batch),
      },
      policy,
    );
    expect(handle).not.toHaveBeenCalled();
    expect(letters.map((letter) => [letter.message, String(letter.error)])).toEqual([
      [message, expect.stringContaining('event 1: n')],
    ]);
  });

  it('gives up without committing when the consumer is stopping', async () => {
    await expect(
      deliverBatch(
        { topic: topic.name, partition: 0, messages: messages(1) },
        {
          topic,
          group: 'g',
          handle: async () => {
            throw new Error('fails');
          },
          deadLetter: async () => undefined,
          isStopping: () => true,
        },
        policy,
      ),
    ).rejects.toBeInstanceOf(DeliveryAbortedError);
  });
});

describe('chunkByEvents', () => {
  const sized = (...counts: number[]) =>
    counts.map((count) => ({
      headers: (count > 1 ? { [EventCountHeader]: String(count) } : {}) as MessageHeaders,
      count,
    }));
  const counts = (chunks: { count: number }[][]) =>
    chunks.map((chunk) => chunk.map((message) => message.count));

  it('fills chunks up to the events allowed, never splitting a message', () => {
    expect(counts(chunkByEvents(sized(1, 1, 1, 1, 1), 2))).toEqual([[1, 1], [1, 1], [1]]);
    expect(counts(chunkByEvents(sized(10, 10, 1, 5, 10, 5), 20))).toEqual([[10, 10], [1, 5, 10], [5]]);
  });

  it('gives a message larger than the limit a chunk of its own', () => {
    expect(counts(chunkByEvents(sized(1, 30, 1), 20))).toEqual([[1], [30], [1]]);
  });

  it('counts a message without a usable count header as one event', () => {
    const odd: { headers: MessageHeaders }[] = [
      { headers: { [EventCountHeader]: 'x' } },
      { headers: { [EventCountHeader]: '-3' } },
      { headers: {} },
    ];
    expect(chunkByEvents(odd, 2).map((chunk) => chunk.length)).toEqual([2, 1]);
  });
});

describe('isPermanentError', () => {
  it.each([
    ['an unsupported Unicode escape', { code: '22P05' }],
    ['a numeric value out of range', { code: '22003' }],
    ['a datetime field overflow', { code: '22008' }],
    ['a not-null violation', { code: '23502' }],
    ['a check violation', { code: '23514' }],
  ])('treats %s as permanent', (_label, error) => {
    expect(isPermanentError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a foreign-key violation (the referenced row may come later)', { code: '23503' }],
    ['a lost connection', { code: '08006' }],
    ['a plain error', new Error('cannot handle')],
  ])('does not treat %s as permanent', (_label, error) => {
    expect(isPermanentError(error)).toBe(false);
  });
});

describe('isTransientError', () => {
  it.each([
    ['connection refused', { code: 'ECONNREFUSED' }],
    ['PostgreSQL admin shutdown', { code: '57P01' }],
    ['PostgreSQL connection failure', { code: '08006' }],
    ['serialization failure', { code: '40001' }],
    ['terminated connection', new Error('Connection terminated unexpectedly')],
  ])('treats %s as transient', (_label, error) => {
    expect(isTransientError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a plain error', new Error('cannot handle')],
    ['a string', 'boom'],
  ])('treats %s as the event’s fault', (_label, error) => {
    expect(isTransientError(error)).toBe(false);
  });
});
