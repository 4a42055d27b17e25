import { InProcessBroker, partitionFor } from './in-process-broker';

describe('partitionFor', () => {
  it('maps a key to the same partition every time, and spreads keys', () => {
    // Pinned to the value FNV-1a gives, so that a change of the hash function is noticed: it would move
    // keys to other partitions, and a key's events published before the change (or before a restart)
    // would no longer be ordered with those published after it. Matching Kafka is not the aim: these
    // events never reach a Kafka cluster, whose default partitioner (kafkajs's too) is murmur2-based
    // and puts this key on partition 9 of 12.
    expect(partitionFor('vehicle-42', 12)).toBe(8);
    expect(partitionFor('vehicle-42', 12)).toBe(partitionFor('vehicle-42', 12));
    const used = new Set(Array.from({ length: 100 }, (_, i) => partitionFor(`vehicle-${i}`, 12)));
    expect(used.size).toBeGreaterThan(8);
  });
});

describe('InProcessBroker', () => {
  it('refuses topics that were not provisioned', () => {
    const broker = new InProcessBroker();
    expect(() => broker.append('missing', [{ key: 'k', value: '{}' }])).toThrow(/does not exist/);
  });

  it('drops consumed messages of delete topics but keeps compacted ones', async () => {
    const broker = new InProcessBroker();
    broker.createTopic('facts', 1);
    broker.createTopic('snapshots', 1, true);
    for (const topic of ['facts', 'snapshots']) {
      broker.subscribe(topic, 'g', async () => undefined);
      broker.append(topic, [
        { key: 'k', value: '1' },
        { key: 'k', value: '2' },
      ]);
    }
    await broker.idle();
    expect(broker.peek('facts')).toEqual([]);
    expect(broker.peek('snapshots').map((message) => message.value)).toEqual(['1', '2']);
    expect(broker.committedOffset('facts', 'g', 0)).toBe(2);
  });

  it('keeps only the newest messages of a topic nobody reads', () => {
    const broker = new InProcessBroker({ unreadRetention: 3 });
    broker.createTopic('letters', 1);
    broker.append(
      'letters',
      ['1', '2', '3', '4', '5'].map((value) => ({ key: 'k', value })),
    );
    expect(broker.peek('letters').map((message) => [message.offset, message.value])).toEqual([
      ['2', '3'],
      ['3', '4'],
      ['4', '5'],
    ]);
  });

  it('redelivers a batch whose handler rejected', async () => {
    const broker = new InProcessBroker({ redeliveryDelayMs: 1 });
    broker.createTopic('t', 1);
    const seen: string[] = [];
    let failures = 1;
    broker.subscribe('t', 'g', async (batch) => {
      if (failures-- > 0) throw new Error('once');
      seen.push(...batch.messages.map((message) => String(message.value)));
    });
    broker.append('t', [{ key: 'k', value: 'a' }]);
    await broker.idle();
    expect(seen).toEqual(['a']);
  });
});
