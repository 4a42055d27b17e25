import { InProcessBroker, partitionFor } from './in-process-broker';

describe('partitionFor', () => {
  it('maps a key to the same partition every time, and spreads keys', () => {
    // Pinned to the values FNV-1a gives (worked out apart from the code), so that a change of the hash function is noticed: it would move
    // keys to other partitions, and a key's events published before the change (or before a restart)
    // would no longer be ordered with those published after it. Matching Kafka is not the aim: these
    // events never reach a Kafka cluster, whose default partitioner (kafkajs's too) is murmur2-based
    // and puts this key on partition 9 of 12.
    expect(partitionFor('vehicle-42', 12)).toBe(8);
    expect(['1', '2', '17', '100000', 'vehicle-7'].map((key) => partitionFor(key, 12))).toEqual([
      4, 1, 1, 4, 11,
    ]);
    const used = new Set(Array.from({ length: 100 }, (_, i) => partitionFor(`vehicle-${i}`, 12)));
    expect(used.size).toBeGreaterThan(8);
  });
});

describe('InProcessBroker', () => {
  it('refuses topics that were not provisioned', async () => {
    const broker = new InProcessBroker();
    await expect(broker.append('missing', [{ key: 'k', value: '{}' }])).rejects.toThrow(/does not exist/);
  });

  it('drops consumed messages of delete topics but keeps compacted ones', async () => {
    const broker = new InProcessBroker();
    broker.createTopic('facts', 1);
    broker.createTopic('snapshots', 1, true);
    for (const topic of ['facts', 'snapshots']) {
      broker.subscribe(topic, 'g', async () => undefined);
      await broker.append(topic, [
        { key: 'k', value: '1' },
        { key: 'k', value: '2' },
      ]);
    }
    await broker.idle();
    expect(await broker.peek('facts')).toEqual([]);
    expect((await broker.peek('snapshots')).map((message) => message.value)).toEqual(['1', '2']);
    expect(broker.committedOffset('facts', 'g', 0)).toBe(2);
  });

  it("reports each group's lag per partition: what it has yet to handle", async () => {
    const broker = new InProcessBroker({ redeliveryDelayMs: 1 });
    broker.createTopic('facts', 2);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    broker.subscribe('facts', 'slow', () => held, { maxBatchSize: 1 });
    broker.subscribe('facts', 'fast', async () => undefined);
    const key = 'k';
    const partition = partitionFor(key, 2);
    await broker.append(
      'facts',
      ['1', '2', '3'].map((value) => ({ key, value })),
    );

    const lagOf = (group: string) =>
      broker.consumerLag().filter((sample) => sample.group === group && sample.partition === partition)[0]
        ?.lag;
    // The slow group holds its first message in its handler: three not yet handled.
    expect(lagOf('slow')).toBe(3);
    release();
    await broker.idle();
    expect(lagOf('slow')).toBe(0);
    expect(lagOf('fast')).toBe(0);
    expect(broker.consumerLag().filter((sample) => sample.group === 'fast')).toHaveLength(2);
  });

  it('keeps only the newest messages of a topic nobody reads', async () => {
    const broker = new InProcessBroker({ unreadRetention: 3 });
    broker.createTopic('letters', 1);
    await broker.append(
      'letters',
      ['1', '2', '3', '4', '5'].map((value) => ({ key: 'k', value })),
    );
    expect((await broker.peek('letters')).map((message) => [message.offset, message.value])).toEqual([
      ['2', '3'],
      ['3', '4'],
      ['4', '5'],
    ]);
  });

  it('becomes idle only once every group has handled everything, including what handlers published', async () => {
    const broker = new InProcessBroker({ redeliveryDelayMs: 1 });
    broker.createTopic('reports', 3);
    broker.createTopic('facts', 2);
    const handled: string[] = [];
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    broker.subscribe('reports', 'ingest', async (batch) => {
      await slow;
      await broker.append(
        'facts',
        batch.messages.map((message) => ({
          key: String(message.key),
          value: `fact-${String(message.value)}`,
        })),
      );
    });
    broker.subscribe('reports', 'audit', async (batch) => {
      handled.push(...batch.messages.map((message) => `audit-${String(message.value)}`));
    });
    let failures = 1;
    broker.subscribe('facts', 'store', async (batch) => {
      if (failures-- > 0) throw new Error('once');
      handled.push(...batch.messages.map((message) => `store-${String(message.value)}`));
    });
    await broker.append('reports', [
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
    ]);

    let idle = false;
    const becameIdle = broker.idle().then(() => (idle = true));
    // Not idle while a handler still holds a batch, however long that takes.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    release();
    await becameIdle;
    expect([...handled].sort()).toEqual(['audit-1', 'audit-2', 'store-fact-1', 'store-fact-2']);
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
    await broker.append('t', [{ key: 'k', value: 'a' }]);
    await broker.idle();
    expect(seen).toEqual(['a']);
  });
});
