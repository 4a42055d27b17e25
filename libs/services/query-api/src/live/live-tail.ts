import { PeriodicTask, PgChannelListener, SERVICE_CONFIG, ServiceConfig } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { RowMark, rowsFrom, PositionMark, positionsFrom } from './live-cursor';
import { LIVE_CHANNEL, LiveAlert, LiveCommand, LiveQueries, UNSCOPED } from './live.queries';
import { LiveRecords, ViewedLivePosition } from './live-records';

/** Rows read per statement. */
const PAGE = 1_000;
/** How often the replica notes its horizon for the feed's `since` (LiveQueries.markClock). */
const CLOCK_INTERVAL_MS = 10_000;
/**
 * How soon the tail reads again when a notified transaction's rows were not readable yet (an older
 * transaction, of any service on the database, was still running), rather than at the next
 * notification or poll, which can be a second away when the fleet is quiet. Each further recheck for
 * the same wait doubles the delay, up to STREAM_POLL_MS, so a long transaction costs a few reads.
 */
const FIRST_RECHECK_MS = 20;
/** How often kept alerts and clock marks past retention are dropped, and how many rows per statement. */
const SWEEP_INTERVAL_MS = 60 * 60_000;
const SWEEP_BATCH = 5_000;

/**
 * A page of new positions as the tail hands it out: the rows after `from` up to `through`, in order,
 * and the same rows by vehicle (in order too), so that a stream of a few vehicles looks only at its own.
 */
export interface PositionPage {
  rows: readonly ViewedLivePosition[];
  byVehicle: ReadonlyMap<number, readonly ViewedLivePosition[]>;
  from: PositionMark;
  through: PositionMark;
  /** When the page was read: the time its events' ids carry, the same for every stream. */
  issuedAtMs: number;
  /**
   * The page as written for a group of streams that see the same (the same view, standing at the same
   * marks): built by the first of them, written by the others as it is (StreamConnection).
   */
  written: Map<string, WrittenPage>;
}

/** A page's events as one group of streams gets them, and where they then stand. */
export interface WrittenPage {
  text: string;
  /** The text's bytes, made once for the streams whose sockets are backed up (queued as bytes). */
  bytes?: Buffer;
  events: number;
  marks: LiveMarks;
}

function pageOf(rows: ViewedLivePosition[], from: PositionMark, through: PositionMark): PositionPage {
  const byVehicle = new Map<number, ViewedLivePosition[]>();
  for (const row of rows) {
    const list = byVehicle.get(row.mark.vehicleId);
    if (list) list.push(row);
    else byVehicle.set(row.mark.vehicleId, [row]);
  }
  return { rows, byVehicle, from, through, issuedAtMs: Date.now(), written: new Map() };
}

/** A live reader of this replica's tail: an open stream that has caught up. */
export interface LiveSubscriber {
  /** Rows after the tail's previous mark, in order, and the tail's mark after them. */
  positions(page: PositionPage): void;
  alerts(rows: readonly LiveAlert[], through: RowMark): void;
  commands(rows: readonly LiveCommand[], through: RowMark): void;
}

/** Every kind's mark. */
export interface LiveMarks {
  positions: PositionMark;
  alerts: RowMark;
  commands: RowMark;
}

/** Before every row of transactions from `horizon` on. */
export const marksFrom = (horizon: bigint): LiveMarks => ({
  positions: positionsFrom(horizon),
  alerts: rowsFrom(horizon),
  commands: rowsFrom(horizon),
});

/**
 * This replica's one reader of new live rows (docs/stream.md, decision 0012). Woken by the commit
 * notifications of the position projection and the alert consumer (and every STREAM_POLL_MS without
 * one), it reads every new row once, for all tenants, and hands each page to the streams that have
 * caught up; each stream keeps what its token may see. `positions` and `alerts` are the marks up to
 * which everything was handed out: a stream that reaches them joins, and from then on misses nothing.
 *
 * While no stream listens, the tail does nothing at all (not even on a notification); the first stream
 * to join again hands it its own marks, up to which that stream has everything.
 */
@Injectable()
export class LiveTail implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveTail.name);
  private readonly listener: PgChannelListener;
  private readonly subscribers = new Set<LiveSubscriber>();
  private marks?: LiveMarks;
  private reading?: Promise<void>;
  private readAgain = false;
  private tasks: PeriodicTask[] = [];
  /** The newest transaction whose commit was notified (LiveQueries.notify): read once the horizon passes it. */
  private notifiedXid = 0n;
  private recheck?: NodeJS.Timeout;
  private recheckMs = FIRST_RECHECK_MS;

  constructor(
    private readonly queries: LiveQueries,
    private readonly records: LiveRecords,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
    @Inject(SERVICE_CONFIG) serviceConfig: ServiceConfig,
  ) {
    this.listener = new PgChannelListener({
      connectionString: serviceConfig.database.url,
      channel: LIVE_CHANNEL,
      applicationName: 'query-live',
      onNotify: (payload) => this.notified(payload),
      onListening: () => this.wake(),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.marks = marksFrom(await this.queries.horizon());
    await this.listener.start();
    await this.noteClock();
    const later = { runAtStart: false };
    this.tasks = [
      new PeriodicTask(
        'live tail poll',
        this.config.live.pollMs,
        async () => this.wake(),
        this.logger,
        later,
      ),
      new PeriodicTask('live clock', CLOCK_INTERVAL_MS, () => this.noteClock(), this.logger, later),
      new PeriodicTask('live rows sweep', SWEEP_INTERVAL_MS, () => this.sweep(), this.logger, later),
    ];
    for (const task of this.tasks) task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.recheck);
    await Promise.all(this.tasks.map((task) => task.stop()));
    await this.listener.stop();
    await this.reading;
  }

  /** The marks up to which every row was handed to the subscribers (undefined before bootstrap). */
  get handedOut(): LiveMarks | undefined {
    return this.marks;
  }

  /**
   * A stream that stands at or past the tail's marks joins (`at`: where it stands). The first one to
   * join an idle tail sets where the tail goes on from: its own marks, so the tail never re-reads
   * what nobody listened to.
   */
  subscribe(subscriber: LiveSubscriber, at: LiveMarks): void {
    if (this.subscribers.size === 0 && !this.reading) this.marks = { ...at };
    this.subscribers.add(subscriber);
    this.wake();
  }

  unsubscribe(subscriber: LiveSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** A transaction that wrote live rows committed (its id is the payload; an empty one wakes alone). */
  notified(payload: string): void {
    if (/^\d+$/.test(payload)) {
      const xid = BigInt(payload);
      if (xid > this.notifiedXid) this.notifiedXid = xid;
    }
    this.wake();
  }

  /** Reads new rows now, or once more after the read in progress. */
  wake(): void {
    if (!this.marks || this.subscribers.size === 0) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readWhileWoken().finally(() => (this.reading = undefined));
  }

  private async readWhileWoken(): Promise<void> {
    do {
      this.readAgain = false;
      try {
        await this.readNew();
      } catch (error) {
        this.logger.warn({ msg: 'reading new live rows failed; reading again at the next wake', err: error });
        return;
      }
    } while (this.readAgain);
  }

  private async readNew(): Promise<void> {
    const horizon = await this.queries.horizon();
    // A notified transaction at or past the horizon waits for an older one still running: look again soon.
    if (horizon > this.notifiedXid) this.recheckMs = FIRST_RECHECK_MS;
    else if (!this.recheck) {
      this.recheck = setTimeout(() => {
        this.recheck = undefined;
        this.wake();
      }, this.recheckMs);
      this.recheck.unref();
      this.recheckMs = Math.min(this.recheckMs * 2, this.config.live.pollMs);
    }
    const marks = this.marks!;
    for (;;) {
      const rows = await this.records.viewed(
        await this.queries.positionsAfter(marks.positions, horizon, UNSCOPED, PAGE),
      );
      const through = rows.length === PAGE ? rows[rows.length - 1].mark : positionsFrom(horizon);
      const page = pageOf(rows, marks.positions, through);
      marks.positions = through;
      for (const subscriber of this.subscribers) subscriber.positions(page);
      if (rows.length < PAGE) break;
    }
    await this.handOutKeyed(
      marks,
      'alerts',
      horizon,
      (after) => this.queries.alertsAfter(after, horizon, UNSCOPED, PAGE),
      (subscriber, rows, through) => subscriber.alerts(rows, through),
    );
    await this.handOutKeyed(
      marks,
      'commands',
      horizon,
      (after) => this.queries.commandsAfter(after, horizon, UNSCOPED, PAGE),
      (subscriber, rows, through) => subscriber.commands(rows, through),
    );
  }

  /** Reads a keyed kind's new rows page by page and hands each page out, moving the kind's mark. */
  private async handOutKeyed<R extends { mark: RowMark }>(
    marks: LiveMarks,
    kind: 'alerts' | 'commands',
    horizon: bigint,
    read: (after: RowMark) => Promise<R[]>,
    hand: (subscriber: LiveSubscriber, rows: R[], through: RowMark) => void,
  ): Promise<void> {
    for (;;) {
      const rows = await read(marks[kind]);
      const through = rows.length === PAGE ? rows[rows.length - 1].mark : rowsFrom(horizon);
      marks[kind] = through;
      for (const subscriber of this.subscribers) hand(subscriber, rows, through);
      if (rows.length < PAGE) break;
    }
  }

  private async noteClock(): Promise<void> {
    try {
      await this.queries.markClock();
    } catch (error) {
      this.logger.warn({ msg: 'could not note the live clock', err: error });
    }
  }

  private async sweep(): Promise<void> {
    const before = new Date(Date.now() - this.config.positions.retentionDays * 86_400_000);
    try {
      while ((await this.queries.sweep(before, SWEEP_BATCH)) > 0) {
        // Batches until nothing is left, so one sweep never holds a long transaction.
      }
    } catch (error) {
      this.logger.warn({ msg: 'sweeping old live rows failed', err: error });
    }
  }
}
