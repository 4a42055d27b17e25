import { CommandRequestedV1, CommandResultV1, TopicSpec } from '@fleet/contracts';
import { EventPublisher, OutgoingEvent } from '@fleet/platform';
import { DataSource, EntityManager } from 'typeorm';
import { TelemetryIngestConfig } from '../telemetry-ingest.config';
import { DeviceCommandQueries, DeviceCommandStore } from './device-commands.queries';
import { DeviceCommandsService } from './device-commands.service';

const VEHICLE = 7;
const COMMAND = '0b7e4a52-3c1d-4f5e-9a6b-7c8d9e0f1a2b';
const HANDED_AT = new Date('2026-11-24T10:00:00.000Z');

/**
 * Transactions that record whether each committed (its callback resolved) or rolled back (it threw),
 * as TypeORM's transaction() does.
 */
function fakeTransactions() {
  const transactions: ('committed' | 'rolled back')[] = [];
  const manager = {} as EntityManager;
  const dataSource = {
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      try {
        const result = await work(manager);
        transactions.push('committed');
        return result;
      } catch (error) {
        transactions.push('rolled back');
        throw error;
      }
    },
  } as unknown as DataSource;
  return { dataSource, manager, transactions };
}

/**
 * The table, as the queries answer: every stored request is kept, a hand-out finds the door-lock
 * command due, and an acknowledgement finds it pending. Each call is checked to run in the
 * transaction's manager.
 */
function fakeQueries(manager: EntityManager) {
  const stored: CommandRequestedV1[] = [];
  const notified: number[][] = [];
  const inTransaction = (given: EntityManager) => expect(given).toBe(manager);
  const queries: DeviceCommandStore = {
    store: async (given, request) => {
      inTransaction(given);
      stored.push(request);
      return true;
    },
    notifyDue: async (given, vehicleIds) => {
      inTransaction(given);
      notified.push([...vehicleIds]);
    },
    handOut: async (given) => {
      inTransaction(given);
      return [{ command: { commandId: COMMAND, type: 'doorLock', lock: true }, handedAt: HANDED_AT }];
    },
    acknowledge: async (given, commandId) => {
      inTransaction(given);
      return commandId;
    },
    dueVehicles: async () => [],
    pruneExpired: async () => {},
    hold: async (given) => {
      inTransaction(given);
      return [];
    },
  };
  return { queries, stored, notified };
}

/** A publisher that keeps what it was given, or fails when told to. */
function fakePublisher() {
  const published: CommandResultV1[] = [];
  let failing = false;
  const publisher: EventPublisher = {
    publish: async <T extends object>(_topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]) => {
      if (failing) throw new Error('broker unavailable');
      published.push(...events.map((event) => event.payload as unknown as CommandResultV1));
    },
  };
  return { publisher, published, fail: () => (failing = true) };
}

const config = { commandResendSeconds: 30 } as TelemetryIngestConfig;

async function serviceWithPendingCommand() {
  const database = fakeTransactions();
  const table = fakeQueries(database.manager);
  const broker = fakePublisher();
  const service = new DeviceCommandsService(
    database.dataSource,
    broker.publisher,
    config,
    // A fake of the table's statements (DeviceCommandStore): the service never sees SQL.
    table.queries as unknown as DeviceCommandQueries,
  );
  const lock: CommandRequestedV1 = {
    commandId: COMMAND,
    vehicleId: VEHICLE,
    companyId: 1,
    type: 'doorLock',
    lock: true,
    requestedAt: '2026-11-24T09:59:00.000Z',
    expiresAt: '2026-11-24T10:04:00.000Z',
  };
  await service.record([lock, { ...lock, commandId: 'other', type: 'odometer', odometerKm: 5 }]);
  // query-api's command types are not ingest's.
  expect(table.stored).toEqual([lock]);
  // Stored: the vehicle is announced to every replica (at commit).
  expect(table.notified).toEqual([[VEHICLE]]);
  expect(database.transactions).toEqual(['committed']);
  database.transactions.length = 0;
  return { service, ...database, ...broker };
}

describe('DeviceCommandsService', () => {
  it('hands out a due command and publishes sent at the hand-out time, in the same transaction', async () => {
    const { service, published, transactions } = await serviceWithPendingCommand();
    expect(await service.handOut(VEHICLE)).toEqual([{ commandId: COMMAND, type: 'doorLock', lock: true }]);
    expect(published).toEqual([
      { commandId: COMMAND, vehicleId: VEHICLE, status: 'sent', at: HANDED_AT.toISOString() },
    ]);
    expect(transactions).toEqual(['committed']);
  });

  it('asks the database nothing for a vehicle without due commands', async () => {
    const { service, transactions } = await serviceWithPendingCommand();
    expect(await service.handOut(VEHICLE + 1)).toEqual([]);
    expect(transactions).toEqual([]);
  });

  it('hands nothing out, rolls back and keeps the vehicle due when sent cannot be published', async () => {
    const { service, published, transactions, fail } = await serviceWithPendingCommand();
    fail();
    await expect(service.handOut(VEHICLE)).resolves.toEqual([]);
    expect(transactions).toEqual(['rolled back']);
    expect(published).toEqual([]);
    // Due still: the next report tries again.
    await service.handOut(VEHICLE);
    expect(transactions).toEqual(['rolled back', 'rolled back']);
  });

  it('publishes acknowledged or failed, and fails (rolled back) when that cannot be published', async () => {
    const { service, published, transactions, fail } = await serviceWithPendingCommand();
    const at = new Date('2026-11-24T10:00:05.000Z');
    await service.acknowledge(VEHICLE, { commandId: COMMAND, status: 'ok' }, at);
    await service.acknowledge(VEHICLE, { commandId: COMMAND, status: 'failed' }, at);
    expect(published).toEqual([
      { commandId: COMMAND, vehicleId: VEHICLE, status: 'acknowledged', at: at.toISOString() },
      {
        commandId: COMMAND,
        vehicleId: VEHICLE,
        status: 'failed',
        at: at.toISOString(),
        reason: 'the device reported failure',
      },
    ]);
    fail();
    await expect(service.acknowledge(VEHICLE, { commandId: COMMAND, status: 'ok' }, at)).rejects.toThrow(
      'broker unavailable',
    );
    expect(transactions).toEqual(['committed', 'committed', 'rolled back']);
  });
});
