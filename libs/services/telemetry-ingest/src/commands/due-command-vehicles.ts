import { Logger } from '@nestjs/common';

/** How often the view is read again from the table (the delay a command on another replica may see). */
export const DUE_REFRESH_MS = 250;
/** How often expired commands are deleted. */
export const PRUNE_EVERY_MS = 60_000;

/** What the view needs of the table. */
export interface DueCommandsSource {
  /** The vehicles with a command that is due to be handed out now. */
  dueVehicles(): Promise<number[]>;
  /** Deletes the commands that expired. */
  pruneExpired(): Promise<void>;
  /** Told the vehicles found or added as due (a connected device can be handed them at once). */
  becameDue?(vehicleIds: readonly number[]): void;
}

/**
 * Which vehicles have a device command due for hand-out, so that a report of any other vehicle (all
 * but a few) costs no database round trip. Read again from the table every {@link DUE_REFRESH_MS}:
 * replicas share the table, and the replica that consumed a command is seldom the one its device
 * reports to. Commands this process stores are added at once.
 *
 * Each entry carries a mark, so that a hand-out that found nothing removes the vehicle only when no
 * command was added for it meanwhile (`settle`), and a refresh keeps what was added while its query
 * ran.
 */
export class DueCommandVehicles {
  private readonly logger = new Logger(DueCommandVehicles.name);
  private due = new Map<number, number>();
  private nextMark = 0;
  private addedDuringRefresh?: Set<number>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private lastPrune = 0;
  private failing = false;

  constructor(
    private readonly source: DueCommandsSource,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The vehicle's mark while it has a command due; undefined otherwise. */
  markOf(vehicleId: number): number | undefined {
    return this.due.get(vehicleId);
  }

  add(vehicleIds: Iterable<number>): void {
    const added: number[] = [];
    for (const vehicleId of vehicleIds) {
      this.due.set(vehicleId, ++this.nextMark);
      this.addedDuringRefresh?.add(vehicleId);
      added.push(vehicleId);
    }
    if (added.length > 0) this.source.becameDue?.(added);
  }

  /** After a hand-out: nothing is due for the vehicle, unless a command was added since `mark`. */
  settle(vehicleId: number, mark: number): void {
    if (this.due.get(vehicleId) === mark) this.due.delete(vehicleId);
  }

  /** Reads the due vehicles again; on failure the view stays as it was. */
  async refresh(): Promise<void> {
    const added = new Set<number>();
    this.addedDuringRefresh = added;
    try {
      const vehicleIds = await this.source.dueVehicles();
      const due = new Map<number, number>();
      for (const vehicleId of vehicleIds) due.set(vehicleId, ++this.nextMark);
      // Stored while the query ran (its snapshot may not hold them) and not handed out since.
      for (const vehicleId of added) {
        const mark = this.due.get(vehicleId);
        if (mark !== undefined) due.set(vehicleId, mark);
      }
      this.due = due;
      if (vehicleIds.length > 0) this.source.becameDue?.(vehicleIds);
      if (this.failing) this.logger.log({ msg: 'device command view readable again' });
      this.failing = false;
    } catch (error) {
      // Once per outage: a database that is down would otherwise log four lines a second.
      if (!this.failing) this.logger.warn({ msg: 'could not read due device commands', err: error });
      this.failing = true;
    } finally {
      if (this.addedDuringRefresh === added) this.addedDuringRefresh = undefined;
    }
    if (this.clock() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = this.clock();
      await this.source.pruneExpired().catch((error: unknown) => {
        this.logger.warn({ msg: 'could not prune expired device commands', err: error });
      });
    }
  }

  /** Refreshes every DUE_REFRESH_MS from now until stop(); one refresh at a time. */
  start(): void {
    const tick = () => {
      this.running = this.refresh().finally(() => {
        this.running = undefined;
        if (this.timer !== undefined) this.timer = setTimeout(tick, DUE_REFRESH_MS).unref();
      });
    };
    this.timer = setTimeout(tick, DUE_REFRESH_MS).unref();
  }

  /** Stops refreshing; resolves once a refresh in progress is over. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
