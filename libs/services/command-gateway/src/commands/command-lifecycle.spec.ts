import { commandStatuses, CommandStatus } from '@fleet/contracts';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { CreateCommands1764800000000 } from '../migrations/1764800000000-create-commands';
import {
  acceptedStatus,
  CommandEvent,
  commandEvents,
  isOpen,
  nextStatus,
  openStatuses,
  statusesChangedBy,
  statusesFrom,
} from './command-lifecycle';
import { CommandQueries } from './commands.queries';

/** Every transition docs/commands.md (Lifecycle) draws, as [from, event, to]. */
const allowed: [CommandStatus, CommandEvent, CommandStatus][] = [
  ['queued', 'sent', 'sent'],
  ['queued', 'acknowledged', 'acknowledged'],
  ['queued', 'failed', 'failed'],
  ['queued', 'expired', 'expired'],
  ['queued', 'superseded', 'superseded'],
  // Held back for want of an authenticated device: still queued, with a reason.
  ['queued', 'held', 'queued'],
  // A re-send: allowed, and the status stays.
  ['sent', 'sent', 'sent'],
  ['sent', 'acknowledged', 'acknowledged'],
  ['sent', 'failed', 'failed'],
  ['sent', 'expired', 'expired'],
];

const finalStatuses: CommandStatus[] = ['acknowledged', 'failed', 'expired', 'superseded'];

describe('command lifecycle', () => {
  it('knows every event that moves a command today', () => {
    expect([...commandEvents].sort()).toEqual(['acknowledged', 'expired', 'failed', 'held', 'sent', 'superseded']);
  });

  it('allows exactly the transitions of docs/commands.md', () => {
    for (const status of commandStatuses) {
      for (const event of commandEvents) {
        const expected = allowed.find(([from, on]) => from === status && on === event)?.[2];
        expect({ status, event, next: nextStatus(status, event) }).toEqual({ status, event, next: expected });
      }
    }
  });

  it('supersedes only queued commands: one sent may have been carried out', () => {
    expect(statusesFrom('superseded')).toEqual(['queued']);
    expect(nextStatus('sent', 'superseded')).toBeUndefined();
  });

  it('gives the final statuses no way out', () => {
    for (const status of finalStatuses) {
      expect(isOpen(status)).toBe(false);
      for (const event of commandEvents) expect(nextStatus(status, event)).toBeUndefined();
    }
    expect([...openStatuses, ...finalStatuses].sort()).toEqual([...commandStatuses].sort());
  });

  it('accepts a command in an open status, and every other status is reached by an event', () => {
    expect(acceptedStatus).toBe('queued');
    expect(isOpen(acceptedStatus)).toBe(true);
    const reached = new Set(allowed.map(([, , to]) => to));
    for (const status of commandStatuses.filter((status) => status !== acceptedStatus)) {
      expect(reached).toContain(status);
    }
  });

  it('counts a transition only where the status changes: a re-send is none, nor is a hold', () => {
    expect(statusesChangedBy('sent')).toEqual(['queued']);
    expect(statusesChangedBy('held')).toEqual([]);
    for (const event of commandEvents.filter((event) => event !== 'sent' && event !== 'held')) {
      expect(statusesChangedBy(event)).toEqual(statusesFrom(event));
    }
  });

  it('has queued and sent as the open statuses, the ones results and the expiry take', () => {
    expect(openStatuses).toEqual(['queued', 'sent']);
    for (const event of ['sent', 'acknowledged', 'failed', 'expired'] as const) {
      expect(statusesFrom(event)).toEqual(openStatuses);
    }
  });

  it('gives the queries their statuses: the open ones are the ones they take, none is written in their SQL', async () => {
    const statements: { sql: string; parameters: unknown[] }[] = [];
    // Every statement answers one row of a locate command: only what the queries are given counts here.
    const manager = {
      query: async (sql: string, parameters: unknown[] = []) => {
        statements.push({ sql, parameters });
        return [{ type: 'locate', status: 'queued', entered: true }];
      },
    } as unknown as EntityManager;
    const queries = new CommandQueries(manager as unknown as DataSource);
    const at = new Date('2026-11-24T10:00:00.000Z');
    const id = '0b7e4a52-3c1d-4f5e-9a6b-7c8d9e0f1a2b';
    const result = { commandId: id, vehicleId: 7, at, reason: null, answer: null };
    await queries.supersede(manager, 7, 'doorLock', id, at);
    await queries.insert(manager, {
      id,
      companyId: 1,
      vehicleId: 7,
      parameters: { type: 'locate' },
      createdAt: at,
      expiresAt: at,
    });
    await queries.hold(manager, id, 7, 'waiting for an authenticated device');
    await queries.markSent(manager, id, 7, at);
    await queries.finish(manager, { ...result, status: 'acknowledged' });
    await queries.finish(manager, { ...result, status: 'failed' });
    await queries.expireDue(manager);
    await queries.byId(id);
    await queries.ofVehicle(7, [1], { limit: 10, offset: 0 });

    const isStatus = (value: unknown) => (commandStatuses as readonly unknown[]).includes(value);
    const statusesGiven = statements.map(({ parameters }) =>
      parameters.filter((value) => isStatus(value) || (Array.isArray(value) && value.every(isStatus))),
    );
    expect(statusesGiven).toEqual([
      ['superseded', ['queued']],
      [acceptedStatus],
      [['queued']],
      [openStatuses, 'sent', ['queued']],
      ['acknowledged', openStatuses],
      ['failed', openStatuses],
      ['expired', openStatuses, ['queued']],
      [],
      [],
    ]);
    for (const { sql } of statements) {
      for (const status of commandStatuses) expect(sql).not.toContain(`'${status}'`);
    }
  });

  it('matches the partial index the expiry sweep reads (commands still waiting)', async () => {
    const statements: string[] = [];
    await new CreateCommands1764800000000().up({
      query: async (sql: string) => statements.push(sql),
    } as unknown as QueryRunner);
    const index = statements.find((sql) => sql.includes('"commands_waiting_idx"'));
    const listed = /"status" IN \(([^)]*)\)/.exec(index ?? '')?.[1];
    expect(listed?.split(',').map((value) => value.trim().replace(/'/g, ''))).toEqual(openStatuses);
  });
});
