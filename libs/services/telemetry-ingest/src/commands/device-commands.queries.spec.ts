import { CommandRequestedV1 } from '@fleet/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { DeviceCommandQueries } from './device-commands.queries';

const COMMAND = '0b7e4a52-3c1d-4f5e-9a6b-7c8d9e0f1a2b';

/** A connection that gives every statement the same rows and keeps the parameters it was given. */
function answering(rows: unknown[]) {
  const parameters: unknown[][] = [];
  const manager = {
    query: async (_sql: string, values: unknown[] = []) => {
      parameters.push(values);
      return rows;
    },
  } as unknown as EntityManager;
  return { manager, queries: new DeviceCommandQueries(manager as unknown as DataSource), parameters };
}

describe('DeviceCommandQueries', () => {
  it("stores only the type's own parameter, and says whether the command was stored", async () => {
    const request: CommandRequestedV1 = {
      commandId: COMMAND,
      vehicleId: 7,
      companyId: 1,
      type: 'ignition',
      on: false,
      requestedAt: '2026-11-24T09:59:00.000Z',
      expiresAt: '2026-11-24T10:04:00.000Z',
    };
    const stored = answering([{ stored: 1 }]);
    expect(await stored.queries.store(stored.manager, request)).toBe(true);
    expect(stored.parameters).toEqual([
      [COMMAND, 7, 'ignition', null, false, request.requestedAt, request.expiresAt],
    ]);
    const redelivered = answering([{ stored: 0 }]);
    expect(await redelivered.queries.store(redelivered.manager, request)).toBe(false);
  });

  it('hands out commands with the fields of their type, and when they were handed out', async () => {
    const { manager, queries } = answering([
      {
        command_id: 'a',
        type: 'doorLock',
        door_lock: true,
        ignition_on: null,
        handed_at: '2026-11-24T10:00:00Z',
      },
      { command_id: 'b', type: 'ignition', door_lock: null, ignition_on: false, handed_at: new Date(0) },
      { command_id: 'c', type: 'locate', door_lock: null, ignition_on: null, handed_at: new Date(0) },
    ]);
    expect(await queries.handOut(manager, 7, 30)).toEqual([
      {
        command: { commandId: 'a', type: 'doorLock', lock: true },
        handedAt: new Date('2026-11-24T10:00:00Z'),
      },
      { command: { commandId: 'b', type: 'ignition', on: false }, handedAt: new Date(0) },
      { command: { commandId: 'c', type: 'locate' }, handedAt: new Date(0) },
    ]);
  });

  it('answers the stored id of an acknowledged command, undefined when none was pending', async () => {
    const found = answering([{ command_id: COMMAND }]);
    expect(await found.queries.acknowledge(found.manager, COMMAND.toUpperCase(), 7)).toBe(COMMAND);
    const none = answering([]);
    expect(await none.queries.acknowledge(none.manager, COMMAND, 7)).toBeUndefined();
  });

  it('announces the vehicles as one comma-separated text', async () => {
    const { manager, queries, parameters } = answering([]);
    await queries.notifyDue(manager, new Set([7, 9]));
    expect(parameters).toEqual([['7,9']]);
  });
});
