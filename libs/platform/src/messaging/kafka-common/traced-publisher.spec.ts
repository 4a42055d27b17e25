import { decodeEvents, defineTopic, EventCountHeader } from '@fleet/contracts';
import { IsInt } from 'class-validator';
import { KafkaRecord, MAX_EVENTS_PER_MESSAGE, TracedKafkaPublisher } from './traced-publisher';

class Numbered {
  @IsInt()
  n!: number;
}
const plainTopic = defineTopic({
  name: 'unit.numbered.v1',
  payload: Numbered,
  partitions: 1,
  cleanupPolicy: 'delete',
  keyDescription: 'k',
});
const groupingTopic = defineTopic({ ...plainTopic, name: 'unit.numbered-runs.v1', groupsEventsOfAKey: true });

/** Keeps what would have been sent. */
class CapturingPublisher extends TracedKafkaPublisher {
  readonly sent: KafkaRecord[] = [];
  protected async send(_topic: string, records: KafkaRecord[]): Promise<void> {
    this.sent.push(...records);
  }
}

const event = (key: string, n: number, traceparent?: string) => ({
  key,
  payload: { n },
  headers: traceparent ? { traceparent } : undefined,
});
const TP_1 = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';
const TP_2 = '00-1bf7651916cd43dd8448eb211c80319c-c7ad6b7169203331-00';

/** Each record as key and the numbers it carries. */
const summary = (records: KafkaRecord[]): [string, number[]][] =>
  records.map((record) => [
    record.key,
    decodeEvents(groupingTopic, record.value).map((payload) => payload.n),
  ]);

describe('TracedKafkaPublisher, grouped messages', () => {
  it('sends one message per event on a topic that does not group', async () => {
    const publisher = new CapturingPublisher();
    await publisher.publish(plainTopic, [event('a', 1), event('a', 2)]);
    expect(publisher.sent.map((record) => [record.key, record.value])).toEqual([
      ['a', '{"n":1}'],
      ['a', '{"n":2}'],
    ]);
  });

  it("puts a key's events of one publish in one message, in order, with their count", async () => {
    const publisher = new CapturingPublisher();
    await publisher.publish(groupingTopic, [event('a', 1), event('b', 2), event('a', 3), event('a', 4)]);
    expect(summary(publisher.sent)).toEqual([
      ['a', [1, 3, 4]],
      ['b', [2]],
    ]);
    expect(publisher.sent[0].headers).toEqual({ [EventCountHeader]: '3' });
    // A key with one event goes as a plain message, as before grouping existed.
    expect(publisher.sent[1].value).toBe('{"n":2}');
    expect(publisher.sent[1].headers).toBeUndefined();
  });

  it('starts a new message for a key when the headers change, keeping the order of its events', async () => {
    const publisher = new CapturingPublisher();
    await publisher.publish(groupingTopic, [
      event('a', 1, TP_1),
      event('a', 2, TP_1),
      event('b', 3, TP_1),
      event('a', 4, TP_2),
      event('a', 5, TP_2),
    ]);
    expect(summary(publisher.sent)).toEqual([
      ['a', [1, 2]],
      ['b', [3]],
      ['a', [4, 5]],
    ]);
    expect(publisher.sent.map((record) => record.headers?.traceparent)).toEqual([TP_1, TP_1, TP_2]);
  });

  it(`holds at most ${MAX_EVENTS_PER_MESSAGE} events in a message`, async () => {
    const publisher = new CapturingPublisher();
    const many = Array.from({ length: MAX_EVENTS_PER_MESSAGE + 1 }, (_, n) => event('a', n));
    await publisher.publish(groupingTopic, many);
    expect(publisher.sent.map((record) => record.headers?.[EventCountHeader])).toEqual([
      String(MAX_EVENTS_PER_MESSAGE),
      undefined,
    ]);
    expect(summary(publisher.sent).flatMap(([, numbers]) => numbers)).toEqual(many.map((e) => e.payload.n));
  });

  it('refuses the whole publish when one event breaks the schema', async () => {
    const publisher = new CapturingPublisher();
    await expect(
      publisher.publish(groupingTopic, [event('a', 1), { key: 'a', payload: { n: 1.5 } }]),
    ).rejects.toThrow(/n must be an integer/);
    expect(publisher.sent).toEqual([]);
  });
});
