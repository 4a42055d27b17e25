import { CompanySnapshotV1, TopicSpec, Topics } from '@fleet/contracts';
import { createTestDatabase, TestDatabase, waitFor } from '@fleet/testing';
import { DataSource } from 'typeorm';
import { EventPublisher, OutgoingEvent } from '../../messaging/message';
import { Outbox } from './outbox';
import { outboxMigration } from './migrations/1700000000000-create-outbox';
import { outboxEntity } from './outbox.schema';

/** Records what the relay publishes; the broker is not what these tests are about. */
class RecordingPublisher extends EventPublisher {
  readonly keys: string[] = [];

  async publish<T extends object>(_topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]): Promise<void> {
    this.keys.push(...events.map((event) => event.key));
  }
}

const snapshot = (companyId: number): OutgoingEvent<CompanySnapshotV1> => ({
  key: String(companyId),
  payload: {
    companyId,
    name: `Company ${companyId}`,
    parentId: null,
    status: 'active',
    timeZone: 'UTC',
    dateTimeFormat: 'dd/MM/yyyy HH:mm:ss',
    showCommands: true,
    version: 1,
    updatedAt: '2026-11-24T10:00:00.000Z',
  },
});

/**
 * The relay publishes what a transaction enqueued when that transaction commits, not at its next
 * poll: the poll interval here is a minute, so only the commit's wake-up can publish within the wait.
 */
describe('Outbox (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let publisher: RecordingPublisher;
  let outbox: Outbox;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource({
      type: 'postgres',
      url: database.url,
      entities: [outboxEntity('relayed')],
      migrations: [outboxMigration('relayed')],
    }).initialize();
    await dataSource.query('CREATE SCHEMA relayed');
    await dataSource.runMigrations();
    publisher = new RecordingPublisher();
    outbox = new Outbox(dataSource, 'relayed', publisher, { pollIntervalMs: 60_000 });
    await outbox.onApplicationBootstrap();
  });
  afterAll(async () => {
    await outbox.onApplicationShutdown();
    await dataSource.destroy();
    await database.drop();
  });

  it('publishes rows as soon as their transaction commits', async () => {
    for (const companyId of [1, 2, 3]) {
      await dataSource.transaction(async (manager) => {
        await outbox.enqueue(manager, Topics.companySnapshots, [snapshot(companyId)]);
        // Work after the enqueue delays the commit past the moment enqueue returned.
        await manager.query('SELECT pg_sleep(0.05)');
      });
      await waitFor(() => publisher.keys.includes(String(companyId)), {
        timeoutMs: 5_000,
        description: `company ${companyId}'s snapshot to be relayed`,
      });
    }
    expect(publisher.keys).toEqual(['1', '2', '3']);
  });

  it('publishes nothing of a transaction that rolled back', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await outbox.enqueue(manager, Topics.companySnapshots, [snapshot(9)]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await dataSource.transaction(async (manager) => {
      await outbox.enqueue(manager, Topics.companySnapshots, [snapshot(10)]);
    });
    await waitFor(() => publisher.keys.includes('10'), { timeoutMs: 5_000, description: 'the next commit' });
    expect(publisher.keys).not.toContain('9');
  });

  it("publishes another process's rows when their transaction commits, woken by the outbox's notification", async () => {
    // A second relay with notifications and a poll of a minute, and a writer of its own (as the admin
    // CLI or another replica writes): only the NOTIFY of the writer's commit can wake it in time.
    const listening = new RecordingPublisher();
    const relay = new Outbox(dataSource, 'relayed', listening, {
      pollIntervalMs: 60_000,
      notifications: { connectionString: database.url },
    });
    await outbox.onApplicationShutdown();
    await relay.onApplicationBootstrap();
    const writer = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    try {
      await waitFor(
        async () =>
          Number(
            (
              await writer.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'outbox-relayed'",
              )
            )[0].n,
          ) === 1,
        { description: 'the relay to listen' },
      );
      await writer.transaction(async (manager) => {
        await Outbox.writeOnly(writer, 'relayed').enqueue(manager, Topics.companySnapshots, [snapshot(20)]);
      });
      await waitFor(() => listening.keys.includes('20'), {
        timeoutMs: 10_000,
        description: "the other process's row to be relayed",
      });
      expect(listening.keys).toEqual(['20']);
    } finally {
      await relay.onApplicationShutdown();
      await writer.destroy();
    }
  });
});
