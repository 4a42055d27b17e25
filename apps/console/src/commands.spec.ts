import { CommandRecord, TrackedCommands } from './commands';

const record = (id: string, status: CommandRecord['status'], vehicleId = 1): CommandRecord => ({
  id,
  vehicleId,
  type: 'doorLock',
  status,
  createdAt: '2026-11-28T06:00:00Z',
  finishedAt: status === 'acknowledged' ? '2026-11-28T06:00:01Z' : null,
  reason: null,
  deviceAnswer: null,
  isLock: true,
});

describe('the commands the console tracks', () => {
  it('applies an event that came before the route answered with the new command', () => {
    const commands = new TrackedCommands();
    expect(commands.update(record('a', 'sent'))).toBe(false);
    expect(commands.update(record('a', 'acknowledged'))).toBe(false);
    commands.track(record('a', 'queued'));
    expect(commands.ofVehicle(1, 5).map((command) => command.status)).toEqual(['acknowledged']);
    expect(commands.unfinished()).toEqual([]);
  });

  it('keeps the later stage of an untracked command whose events came out of order', () => {
    const commands = new TrackedCommands();
    commands.update(record('a', 'acknowledged'));
    commands.update(record('a', 'sent'));
    commands.track(record('a', 'queued'));
    expect(commands.ofVehicle(1, 5)[0].status).toBe('acknowledged');
  });

  it('follows the events of a tracked command and never goes back a stage', () => {
    const commands = new TrackedCommands();
    commands.track(record('a', 'queued'));
    expect(commands.update(record('a', 'sent'))).toBe(true);
    expect(commands.update(record('a', 'failed'))).toBe(true);
    expect(commands.update(record('a', 'sent'))).toBe(false);
    commands.track(record('a', 'queued'));
    expect(commands.ofVehicle(1, 5)[0].status).toBe('failed');
  });

  it('lists the open commands, and a vehicle’s newest first up to the limit', () => {
    const commands = new TrackedCommands();
    commands.track({ ...record('old', 'sent'), createdAt: '2026-11-28T05:00:00Z' });
    commands.track(record('new', 'queued'));
    commands.track(record('done', 'acknowledged'));
    commands.track(record('other', 'queued', 2));
    expect(commands.unfinished().map((command) => command.id)).toEqual(['old', 'new', 'other']);
    expect(commands.ofVehicle(1, 2).map((command) => command.id)).toEqual(['new', 'done']);
  });

  it('keeps the events of untracked commands only up to its bound', () => {
    const commands = new TrackedCommands();
    commands.update(record('first', 'acknowledged'));
    for (let i = 0; i < 200; i += 1) commands.update(record(`other-${i}`, 'sent'));
    commands.track(record('first', 'queued'));
    expect(commands.ofVehicle(1, 1)[0].status).toBe('queued');
  });
});
