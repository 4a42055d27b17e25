// The commands sent from this console and their statuses. No DOM, no I/O: unit-tested in commands.spec.ts.

/** A command record as the command routes and the stream's `command` events carry it. */
export interface CommandRecord {
  id: string;
  vehicleId: number;
  type: string;
  status: 'queued' | 'sent' | 'acknowledged' | 'failed' | 'expired' | 'superseded';
  createdAt: string;
  finishedAt: string | null;
  reason: string | null;
  deviceAnswer: string | null;
  isLock?: boolean;
  isOn?: boolean;
}

/** A status the command never leaves. */
export const FINISHED: ReadonlySet<CommandRecord['status']> = new Set([
  'acknowledged',
  'failed',
  'expired',
  'superseded',
]);

/** How far a command has come: a record is never replaced by one of an earlier stage. */
const stage = (command: CommandRecord): number =>
  FINISHED.has(command.status) ? 2 : command.status === 'sent' ? 1 : 0;

/** Stream events of commands not (yet) tracked that are kept, newest last. */
const EARLY_EVENTS_KEPT = 200;

/**
 * The commands sent from this console, kept current by the stream's `command` events.
 *
 * A command's events can arrive before the route that created it has answered (the device may
 * acknowledge within milliseconds, while the answer is still on its way to the browser), so events of
 * commands not tracked yet are kept for a while and applied when the command is tracked. A record is
 * never replaced by one of an earlier stage, whatever the order in which the route's answer, a re-read
 * and the events come.
 */
export class TrackedCommands {
  private readonly tracked = new Map<string, CommandRecord>();
  private readonly early = new Map<string, CommandRecord>();

  /** Starts tracking a command the console sent (the route's answer, or a re-read of it). */
  track(command: CommandRecord): void {
    const seen = this.early.get(command.id);
    this.early.delete(command.id);
    this.tracked.set(command.id, newer(newer(this.tracked.get(command.id), command), seen));
  }

  /** A stream event; true when it changed a tracked command. */
  update(command: CommandRecord): boolean {
    const known = this.tracked.get(command.id);
    if (known === undefined) {
      const seen = this.early.get(command.id);
      // Deleted first so that the entry moves to the newest end, which the bound evicts last.
      this.early.delete(command.id);
      this.early.set(command.id, newer(seen, command));
      if (this.early.size > EARLY_EVENTS_KEPT) this.early.delete(this.early.keys().next().value!);
      return false;
    }
    const next = newer(known, command);
    if (next === known) return false;
    this.tracked.set(command.id, next);
    return true;
  }

  /** The commands whose status may still change (re-read after the stream could not resume). */
  unfinished(): CommandRecord[] {
    return [...this.tracked.values()].filter((command) => !FINISHED.has(command.status));
  }

  /** A vehicle's commands, newest first. */
  ofVehicle(vehicleId: number, limit: number): CommandRecord[] {
    return [...this.tracked.values()]
      .filter((command) => command.vehicleId === vehicleId)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
      .slice(0, limit);
  }
}

/** The record of the later stage; on a tie the one given last (events come in order). */
function newer(current: CommandRecord | undefined, next: CommandRecord | undefined): CommandRecord {
  if (current === undefined) return next!;
  if (next === undefined) return current;
  return stage(next) >= stage(current) ? next : current;
}
