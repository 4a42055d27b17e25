import { CompanySuspendedException } from '@fleet/errors';
import { RecordViewer } from '@fleet/formats';
import { FleetMetrics, PeriodicTask, Principal } from '@fleet/platform';
import { Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { LiveSettings } from '../query-api.config';
import { rowAfter, RowMark, rowsFrom, positionAfter, positionsFrom, streamIdOf } from './live-cursor';
import { LiveAlert, LiveCommand, LiveQueries } from './live.queries';
import { LiveRecords, ViewedLivePosition } from './live-records';
import { LiveMarks, LiveSubscriber, LiveTail, marksFrom, PositionPage, WrittenPage } from './live-tail';
import { LiveRequest, LiveView, LiveVisibility } from './live-visibility';

/** Rows read per statement while catching up, at most (a page's bytes are bounded too: catchUpPage). */
const CATCH_UP_PAGE = 500;
/** What an event is taken to weigh before the stream has sent any (a V2 position is about 700 bytes). */
const FIRST_EVENT_CHARS = 1_024;
/** How often an open stream reads its token's visibility again and checks its company. */
const REFRESH_MS = 2_000;
/** How long a closed stream's unsent bytes may take to leave before the socket is destroyed. */
const FLUSH_GRACE_MS = 30_000;
/** The same for a client reset because it did not read: its buffer is full, so the wait is short. */
const STALLED_GRACE_MS = 3_000;
/** What the client is told to wait before reconnecting (the SSE `retry:` field). */
export const RETRY_MS = 3_000;

export interface StreamDependencies {
  tail: LiveTail;
  queries: LiveQueries;
  visibility: LiveVisibility;
  records: LiveRecords;
  settings: LiveSettings;
  metrics: FleetMetrics;
}

/** Where a stream starts: after these marks, or at the replica's live edge (with a reset first, or not). */
export type StreamStart =
  ({ kind: 'resume' } & LiveMarks) | { kind: 'live' } | { kind: 'reset'; reason: string };

const max = <T>(a: T, b: T, after: (x: T, y: T) => boolean): T => (after(b, a) ? b : a);

/**
 * One open stream (docs/stream.md): reads what it missed from the database page by page, at the pace
 * the client takes it, then joins the replica's LiveTail and gets each new page as it is read. Each
 * event's id is where the client stands in every kind; resuming from it continues after exactly that.
 * A client that does not keep up while live (more than STREAM_BUFFER_BYTES unsent) gets `overflow`
 * with its id and is closed. Whatever the phase, a client already more than STREAM_MAX_BUFFER_KB behind
 * when more is to be written gets `reset` (with its id too) and is closed: the server never holds more
 * than that and one page for it. While catching up, the next page is read only once the socket drained.
 */
export class StreamConnection implements LiveSubscriber {
  private readonly logger = new Logger('Stream');
  /** Where the client stands in every kind: what its next id says. */
  private marks: LiveMarks = marksFrom(0n);
  private view?: LiveView;
  private live = false;
  private closed = false;
  private expiry?: NodeJS.Timeout;
  private tasks: PeriodicTask[] = [];
  private readonly viewer: RecordViewer;
  /** Events of the page being handed out, written to the socket in one piece. */
  private pending = '';
  private pendingEvents = 0;
  /** What the events written while catching up weighed, to size the next page in bytes. */
  private caughtUpChars = 0;
  private caughtUpEvents = 0;
  private onClose?: () => void;
  /** Ends a wait for the socket's drain when the stream closes first. */
  private stopWaiting?: () => void;
  /** While a live page is built: the time its ids carry (the page's, so that streams can share it). */
  private issuedAtMs?: number;
  /** While a shared page is built: its events are counted as each stream of the group writes it. */
  private building = false;
  /** The view the sharing key was made for, and that key (what decides which events a page gives). */
  private viewKey?: { view: LiveView; key: string };

  constructor(
    private readonly deps: StreamDependencies,
    private readonly principal: Principal,
    private readonly request: LiveRequest,
    private readonly response: ServerResponse,
    viewer: RecordViewer,
    private readonly expiresAtMs: number | undefined,
  ) {
    this.viewer = { timeZone: viewer.timeZone, dateFormat: viewer.dateFormat };
    response.on('close', () => this.close());
  }

  /** Starts the stream; `onClose` runs once when it ends, whoever ends it. */
  async start(start: StreamStart, onClose: () => void): Promise<void> {
    this.onClose = onClose;
    this.response.write(`retry: ${RETRY_MS}\n\n`);
    let from: LiveMarks;
    try {
      // A new stream starts at the horizon: everything accepted from now on.
      from = start.kind === 'resume' ? start : marksFrom(await this.deps.queries.horizon());
    } catch (error) {
      this.logger.warn({ msg: 'stream could not start; closing it', err: error });
      this.close();
      return;
    }
    // The client may have left while the horizon was read: nothing to start then.
    if (this.closed) return;
    this.marks = { positions: from.positions, alerts: from.alerts, commands: from.commands };
    if (start.kind === 'reset') this.send('reset', { reason: start.reason });
    this.flush();
    this.comment('open');
    const later = { runAtStart: false };
    const heartbeatMs = this.deps.settings.heartbeatSeconds * 1000;
    this.tasks = [
      new PeriodicTask('stream heartbeat', heartbeatMs, async () => this.heartbeat(), this.logger, later),
      new PeriodicTask('stream visibility refresh', REFRESH_MS, () => this.refresh(), this.logger, later),
    ];
    for (const task of this.tasks) task.start();
    if (this.expiresAtMs !== undefined) {
      const wait = Math.max(0, Math.min(this.expiresAtMs - Date.now(), 2 ** 31 - 1));
      this.expiry = setTimeout(() => this.end('expired', { message: 'The access token expired.' }), wait);
      this.expiry.unref();
    }
    try {
      this.view = await this.deps.visibility.viewOf(this.principal, this.request);
      await this.catchUp();
    } catch (error) {
      if (this.closed) return;
      this.logger.warn({ msg: 'stream failed while catching up; closing it', err: error });
      this.close();
    }
  }

  /** The id of where the client stands now. */
  get id(): string {
    return streamIdOf({ issuedAtMs: this.issuedAtMs ?? Date.now(), ...this.marks });
  }

  /**
   * A live page of positions. Streams with the same view that stand at the same marks get the same
   * text (the ids carry the page's time): the first builds it, the others write it as it is, so a
   * thousand streams of one company cost one page's formatting and, when their sockets are backed up,
   * one copy of its bytes, not a thousand.
   */
  positions(page: PositionPage): void {
    if (!this.live || this.closed || this.fellBehind()) return;
    const key = this.sharingKey();
    this.writeShared(page.written.get(key) ?? this.buildPage(page, key));
  }

  /** The page's events as this stream's group gets them, kept on the page for the rest of the group. */
  private buildPage(page: PositionPage, key: string): WrittenPage {
    const before = this.marks;
    this.marks = { ...before };
    this.issuedAtMs = page.issuedAtMs;
    this.building = true;
    const now = new Date();
    // A stream that stands at or before the page's start takes every row it sees; one that joined
    // further on skips what it already has.
    const all = !positionAfter(this.marks.positions, page.from);
    for (const row of this.candidates(page)) {
      if (all || positionAfter(row.mark, this.marks.positions)) this.sendPosition(row, now);
    }
    this.marks.positions = max(this.marks.positions, page.through, positionAfter);
    const written: WrittenPage = { text: this.pending, events: this.pendingEvents, marks: this.marks };
    this.pending = '';
    this.pendingEvents = 0;
    this.marks = before;
    this.issuedAtMs = undefined;
    this.building = false;
    page.written.set(key, written);
    return written;
  }

  /** What decides a live page's text for this stream: its view and where it stands. */
  private sharingKey(): string {
    const view = this.view!;
    if (this.viewKey?.view !== view) {
      const vehicles = [...view.vehicles].sort((a, b) => a - b).join(',');
      const viewer = `${this.viewer.timeZone}\u0000${this.viewer.dateFormat}`;
      this.viewKey = { view, key: `${[...view.types].sort().join(',')}|${viewer}|${vehicles}` };
    }
    const { positions: p, alerts: a, commands: c } = this.marks;
    return `${this.viewKey.key}|${p.xid}.${p.vehicleId}.${p.fixTimeUs}.${a.xid}.${a.key}.${c.xid}.${c.key}`;
  }

  /**
   * Writes a page of this stream's group, unless the client has not taken what it was sent before and
   * the page would take what the server holds for it past STREAM_MAX_BUFFER_KB: then it gets `reset`
   * where it stands (so the server never holds more than the cap, or one page when a page is larger,
   * for a client that does not read).
   */
  private writeShared(written: WrittenPage): void {
    const backlog = this.response.writableLength;
    if (backlog > 0 && backlog + written.text.length > this.deps.settings.maxBufferBytes) {
      this.resetBehind();
      return;
    }
    this.marks = { ...written.marks };
    if (written.events > 0) this.deps.metrics.streamEvents.inc({ type: 'position' }, written.events);
    if (written.text !== '') {
      // Backed up: the same bytes for every stream of the group, queued outside the V8 heap.
      this.response.write(backlog > 0 ? (written.bytes ??= Buffer.from(written.text)) : written.text);
    }
    this.checkBuffer(backlog);
  }

  /**
   * Builds a live page and writes it, unless the client has not taken what it was sent before and the
   * page would take what the server holds for it past STREAM_MAX_BUFFER_KB: then the page is dropped, the
   * client stands where it stood before it, and it gets `reset` (so the server never holds more than the
   * cap, or one page when a page is larger, for a client that does not read).
   */
  private livePage(build: () => void): void {
    const before = { ...this.marks };
    build();
    // A page larger than the cap still goes to a client that has taken everything before it.
    const backlog = this.response.writableLength;
    if (backlog > 0 && backlog + this.pending.length > this.deps.settings.maxBufferBytes) {
      this.pending = '';
      this.pendingEvents = 0;
      this.marks = before;
      this.resetBehind();
      return;
    }
    this.flush();
    this.checkBuffer(backlog);
  }

  /**
   * The page's rows this stream may see, in the page's order: a stream of few vehicles gathers its
   * own from the page's index instead of looking at every row of the fleet.
   */
  private candidates(page: PositionPage): readonly ViewedLivePosition[] {
    const view = this.view!;
    if (!view.types.has('positions')) return [];
    if (view.vehicles.size * 4 >= page.rows.length) return page.rows;
    const own: ViewedLivePosition[] = [];
    let lists = 0;
    for (const vehicleId of view.vehicles) {
      const list = page.byVehicle.get(vehicleId);
      if (list) {
        own.push(...list);
        lists++;
      }
    }
    // Ids must grow along the stream, so rows of several vehicles go out in the page's order.
    if (lists > 1) own.sort((a, b) => (positionAfter(a.mark, b.mark) ? 1 : -1));
    return own;
  }

  alerts(rows: readonly LiveAlert[], through: RowMark): void {
    this.keyedPage('alerts', rows, through, (row) => this.sendAlert(row));
  }

  commands(rows: readonly LiveCommand[], through: RowMark): void {
    this.keyedPage('commands', rows, through, (row) => this.sendCommand(row));
  }

  /** A live page of a keyed kind: the rows after where the client stands, then the tail's mark. */
  private keyedPage<R extends { mark: RowMark }>(
    kind: 'alerts' | 'commands',
    rows: readonly R[],
    through: RowMark,
    send: (row: R) => void,
  ): void {
    if (!this.live || this.closed || this.fellBehind()) return;
    this.livePage(() => {
      for (const row of rows) if (rowAfter(row.mark, this.marks[kind])) send(row);
      this.marks[kind] = max(this.marks[kind], through, rowAfter);
    });
  }

  /**
   * Reads from the database until the client stands at or past the tail's marks, then joins the tail
   * in the same turn of the event loop (so no page the tail hands out falls between the two). Each page
   * is written before the next is read, once the socket took the one before: a client that does not
   * read holds one page in the server, never the history.
   */
  private async catchUp(): Promise<void> {
    const { queries, tail } = this.deps;
    while (!this.closed) {
      const edge = tail.handedOut!;
      if (
        !positionAfter(edge.positions, this.marks.positions) &&
        !rowAfter(edge.alerts, this.marks.alerts) &&
        !rowAfter(edge.commands, this.marks.commands)
      ) {
        this.live = true;
        tail.subscribe(this, { ...this.marks });
        return;
      }
      const horizon = await queries.horizon();
      const view = this.view!;
      let full = false;
      if (view.types.has('positions')) {
        const limit = this.catchUpPage();
        const rows = await this.deps.records.viewed(
          await queries.positionsAfter(this.marks.positions, horizon, view.scope, limit),
        );
        if (this.closed) return;
        const now = new Date();
        for (const row of rows) this.sendPosition(row, now);
        full = rows.length === limit;
        if (!(await this.written())) return;
      }
      if (!full) this.marks.positions = max(this.marks.positions, positionsFrom(horizon), positionAfter);
      const alerts = await this.catchUpKeyed(
        'alerts',
        horizon,
        (after, limit) => queries.alertsAfter(after, horizon, view.scope, limit),
        (row) => this.sendAlert(row),
      );
      if (!alerts) return;
      const commands = await this.catchUpKeyed(
        'commands',
        horizon,
        (after, limit) => queries.commandsAfter(after, horizon, view.scope, limit),
        (row) => this.sendCommand(row),
      );
      if (!commands) return;
    }
  }

  /**
   * One page of a keyed kind read from the database (when the stream asked for that kind) and written;
   * after a page that was not full, the client stands at the horizon in that kind. False once the
   * stream closed.
   */
  private async catchUpKeyed<R extends { mark: RowMark }>(
    kind: 'alerts' | 'commands',
    horizon: bigint,
    read: (after: RowMark, limit: number) => Promise<R[]>,
    send: (row: R) => void,
  ): Promise<boolean> {
    let full = false;
    if (this.view!.types.has(kind)) {
      const limit = this.catchUpPage();
      const rows = await read(this.marks[kind], limit);
      if (this.closed) return false;
      for (const row of rows) send(row);
      full = rows.length === limit;
      if (!(await this.written())) return false;
    }
    if (!full) this.marks[kind] = max(this.marks[kind], rowsFrom(horizon), rowAfter);
    return !this.closed;
  }

  /**
   * Rows for the next page of history: as many as fit in half of STREAM_MAX_BUFFER_KB at what this
   * stream's events weighed so far, so that a page written to a client that stopped reading stays
   * inside the cap and a heartbeat never finds a reader that keeps up past it.
   */
  private catchUpPage(): number {
    const perEvent = this.caughtUpEvents === 0 ? FIRST_EVENT_CHARS : this.caughtUpChars / this.caughtUpEvents;
    const rows = Math.floor(this.deps.settings.maxBufferBytes / 2 / perEvent);
    return Math.min(CATCH_UP_PAGE, Math.max(1, rows));
  }

  /** Writes a page of history and waits until the socket took it; false once the stream closed. */
  private async written(): Promise<boolean> {
    this.caughtUpChars += this.pending.length;
    this.caughtUpEvents += this.pendingEvents;
    this.flush();
    await this.drained();
    return !this.closed;
  }

  private sendPosition(row: ViewedLivePosition, now: Date): void {
    this.marks.positions = row.mark;
    const view = this.view!;
    if (!view.types.has('positions') || !view.vehicles.has(row.mark.vehicleId)) return;
    this.sendJson('position', this.deps.records.positionJson(row, this.viewer, now));
  }

  private sendAlert(row: LiveAlert): void {
    this.marks.alerts = row.mark;
    const view = this.view!;
    const { companyId, vehicleId } = row.record;
    if (!view.types.has('alerts') || !view.companies.has(companyId)) return;
    if (view.alertVehicles && !view.alertVehicles.has(vehicleId)) return;
    this.send('alert', this.deps.records.alert(row.record, this.viewer));
  }

  private sendCommand(row: LiveCommand): void {
    this.marks.commands = row.mark;
    const view = this.view!;
    const { companyId, ...record } = row.change;
    if (!view.types.has('commands') || !view.companies.has(companyId) || !view.vehicles.has(record.vehicleId))
      return;
    this.send('command', record);
  }

  private send(event: string, data: unknown): void {
    this.sendJson(event, JSON.stringify(data));
  }

  /** Queues an event of the page being handed out; `flush` writes the page. */
  private sendJson(event: string, json: string): void {
    this.pending += `id: ${this.id}\nevent: ${event}\ndata: ${json}\n\n`;
    this.pendingEvents++;
    if (!this.building) this.deps.metrics.streamEvents.inc({ type: event });
  }

  private flush(): void {
    if (this.pending === '' || this.closed) return;
    this.write(this.pending);
    this.pending = '';
    this.pendingEvents = 0;
  }

  /**
   * Text the socket takes at once goes to it as is; text that must wait behind unflushed bytes is
   * queued as bytes, outside the V8 heap: a queued string stays on the heap (256 MB as deployed), and
   * a thousand clients that stopped reading would hold up to STREAM_MAX_BUFFER_KB of it each.
   */
  private write(text: string): void {
    this.response.write(this.response.writableLength > 0 ? Buffer.from(text) : text);
  }

  private comment(text: string): void {
    // An id without data moves the client's last event id without an event (WHATWG SSE, dispatch).
    this.write(`: ${text}\nid: ${this.id}\n\n`);
  }

  /**
   * While catching up the server sets the pace: when the socket did not take the last page at once, it
   * waits for the socket's drain (or the stream's end) before reading the next one.
   */
  private async drained(): Promise<void> {
    if (this.closed || !this.response.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.response.off('drain', done);
        this.response.off('close', done);
        this.stopWaiting = undefined;
        resolve();
      };
      this.stopWaiting = done;
      this.response.on('drain', done);
      this.response.on('close', done);
    });
  }

  /**
   * What the server holds for this client and has not handed to the kernel yet: the response's (and
   * its socket's) unflushed bytes and the page being built.
   */
  private get unsent(): number {
    return this.response.writableLength + this.pending.length;
  }

  /**
   * A client already more than STREAM_MAX_BUFFER_KB behind is not sent more: it gets `reset` with the
   * id of where it stands and the stream ends. True when that happened.
   */
  private fellBehind(): boolean {
    if (this.unsent <= this.deps.settings.maxBufferBytes) return false;
    this.resetBehind();
    return true;
  }

  /**
   * `reset` for a client that does not read: behind a full buffer it may never arrive, so the socket is
   * destroyed (its buffered bytes freed) after a short grace instead of FLUSH_GRACE_MS; the client
   * resumes from the last id it received either way.
   */
  private resetBehind(): void {
    this.freezeId();
    this.end(
      'reset',
      {
        reason: 'The client did not read fast enough (STREAM_MAX_BUFFER_KB); resume from lastEventId.',
        lastEventId: this.id,
      },
      STALLED_GRACE_MS,
    );
  }

  /**
   * `overflow` for a client that did not keep up: it had not taken what it was sent before this page
   * (`backlog`), and now more than STREAM_BUFFER_BYTES waits. A page larger than that, written to a
   * client that had taken everything, waits for the socket like any write and ends nothing.
   */
  private checkBuffer(backlog: number): void {
    if (backlog > 0 && this.response.writableLength > this.deps.settings.bufferBytes) {
      this.freezeId();
      this.end('overflow', {
        lastEventId: this.id,
        message: 'The client did not read fast enough; resume from lastEventId.',
      });
    }
  }

  /**
   * The last event of a stream carries its id twice (the `id:` line and `lastEventId`): one time for
   * both, though the clock may tick between them. The stream ends right after, so it stays frozen.
   */
  private freezeId(): void {
    this.issuedAtMs ??= Date.now();
  }

  private heartbeat(): void {
    if (!this.closed && !this.fellBehind()) this.comment('heartbeat');
  }

  private async refresh(): Promise<void> {
    if (this.closed) return;
    if (this.deps.visibility.keyRevoked(this.principal)) {
      this.end('revoked', { message: 'The API key of this token was deleted.' });
      return;
    }
    const suspended = this.deps.visibility.suspendedCompanyOf(this.principal);
    if (suspended !== undefined) {
      this.end('suspended', new CompanySuspendedException(suspended).body());
      return;
    }
    try {
      const view = await this.deps.visibility.viewOf(this.principal, this.request);
      if (!this.closed) this.view = view;
    } catch (error) {
      this.logger.warn({ msg: 'could not refresh a stream visibility; keeping the last one', err: error });
    }
  }

  /** Ends the stream as the replica stops: the client reconnects elsewhere with its last id. */
  shutdown(): void {
    this.end('shutdown', { lastEventId: this.id, message: 'The server is restarting; reconnect.' });
  }

  /** Sends a last event and ends the stream; what was written still leaves, within a grace period. */
  private end(event: string, data: unknown, graceMs = FLUSH_GRACE_MS): void {
    if (this.closed) return;
    this.send(event, data);
    this.flush();
    this.deps.metrics.streamsEnded.inc({ reason: event });
    const socket = this.response.socket;
    this.response.end();
    setTimeout(() => socket?.destroy(), graceMs).unref();
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    if (!this.response.writableEnded) this.deps.metrics.streamsEnded.inc({ reason: 'closed' });
    this.closed = true;
    this.stopWaiting?.();
    clearTimeout(this.expiry);
    for (const task of this.tasks) void task.stop();
    this.deps.tail.unsubscribe(this);
    if (!this.response.writableEnded) this.response.end();
    this.onClose?.();
  }
}
