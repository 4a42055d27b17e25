import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { FleetMetrics, Principal } from '@fleet/platform';
import { LiveSettings } from '../query-api.config';
import { PositionMark, streamMarkOf } from './live-cursor';
import { LiveQueries } from './live.queries';
import { LiveRecords, ViewedLivePosition } from './live-records';
import { LiveMarks, LiveTail, marksFrom, PositionPage } from './live-tail';
import { LiveView, LiveVisibility } from './live-visibility';
import { StreamConnection, StreamDependencies } from './stream-connection';

/**
 * A response whose client reads (every write is taken at once) or has stopped reading (what is written
 * stays unflushed until `drain()`), as a socket whose peer's receive window is full behaves.
 */
class FakeResponse extends EventEmitter {
  readonly chunks: string[] = [];
  writableLength = 0;
  writableNeedDrain = false;
  writableEnded = false;
  socket = { destroy: () => undefined };
  reading = true;

  write(chunk: string): boolean {
    this.chunks.push(chunk);
    if (!this.reading) {
      this.writableLength += chunk.length;
      this.writableNeedDrain = true;
    }
    return !this.writableNeedDrain;
  }

  end(): void {
    this.writableEnded = true;
  }

  /** The client read everything: the socket drains. */
  drain(): void {
    this.writableLength = 0;
    this.writableNeedDrain = false;
    this.emit('drain');
  }

  get text(): string {
    return this.chunks.join('');
  }

  /** The events written, in order: name and id. */
  get events(): { event: string; id: string; data: string }[] {
    return this.text
      .split('\n\n')
      .filter((block) => block.includes('event: '))
      .map((block) => {
        const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(block)?.[1] ?? '';
        return { event: field('event'), id: field('id'), data: field('data') };
      });
  }
}

const EVENT_JSON = JSON.stringify({ padding: 'x'.repeat(980) });
const CAP = 32 * 1024;
const settings: LiveSettings = {
  resumeHours: 24,
  maxStreamsPerKey: 10,
  heartbeatSeconds: 300,
  // Far above the cap: what ends a stream here is the cap, not the overflow.
  bufferBytes: 1024 * 1024,
  maxBufferBytes: CAP,
  pollMs: 1_000,
};

const positionRow = (xid: bigint, vehicleId: number, fixTimeUs: number): ViewedLivePosition =>
  ({ mark: { xid, vehicleId, fixTimeUs } }) as unknown as ViewedLivePosition;

const view: LiveView = {
  types: new Set(['positions']),
  scope: { vehicleIds: null, companyIds: null, alertVehicleIds: null },
  vehicles: new Set([1]),
  companies: new Set([1]),
  alertVehicles: null,
};

const flushPromises = async () => {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * A stream on fakes: the tail stands at `edge`; with `history`, the stream resumes from the start of
 * it (`history(after, limit)` answers the reads), else it starts live.
 */
function streamOn(edge: LiveMarks, history?: (after: PositionMark, limit: number) => ViewedLivePosition[]) {
  const response = new FakeResponse();
  const subscribed: unknown[] = [];
  const unsubscribed: unknown[] = [];
  const reads: { after: PositionMark; limit: number }[] = [];
  const tail = {
    handedOut: edge,
    subscribe: (subscriber: unknown) => subscribed.push(subscriber),
    unsubscribe: (subscriber: unknown) => unsubscribed.push(subscriber),
  } as unknown as LiveTail;
  const queries = {
    horizon: async () => edge.positions.xid,
    positionsAfter: async (after: PositionMark, _horizon: bigint, _scope: unknown, limit: number) => {
      reads.push({ after, limit });
      return history ? history(after, limit) : [];
    },
    alertsAfter: async () => [],
    commandsAfter: async () => [],
  } as unknown as LiveQueries;
  const counter = { inc: () => undefined, set: () => undefined };
  const deps: StreamDependencies = {
    tail,
    queries,
    visibility: {
      viewOf: async () => view,
      keyRevoked: () => false,
      suspendedCompanyOf: () => undefined,
    } as unknown as LiveVisibility,
    records: {
      viewed: async (rows: ViewedLivePosition[]) => rows,
      positionJson: () => EVENT_JSON,
    } as unknown as LiveRecords,
    settings,
    metrics: {
      streamEvents: counter,
      streamsEnded: counter,
      streamsOpen: counter,
    } as unknown as FleetMetrics,
  };
  const principal = { subject: 'apikey:1', companyId: 1, userId: 0, timeZone: 'UTC' } as Principal;
  const connection = new StreamConnection(
    deps,
    principal,
    { types: ['positions'], vehicleIds: null },
    response as unknown as ServerResponse,
    { timeZone: 'UTC', dateFormat: undefined } as never,
    undefined,
  );
  let closed = false;
  const started = connection.start(history ? { kind: 'resume', ...marksFrom(1n) } : { kind: 'live' }, () => {
    closed = true;
  });
  return { connection, response, subscribed, unsubscribed, reads, started, isClosed: () => closed };
}

/** A live page of `count` positions of vehicle 1 in transaction `xid`. */
function livePage(xid: bigint, count: number): PositionPage {
  const rows = Array.from({ length: count }, (_, index) => positionRow(xid, 1, index + 1));
  return {
    rows,
    byVehicle: new Map([[1, rows]]),
    from: { xid, vehicleId: 0, fixTimeUs: 0 },
    through: { xid: xid + 1n, vehicleId: 0, fixTimeUs: 0 },
    issuedAtMs: Date.now(),
    written: new Map(),
  };
}

describe('StreamConnection: a bounded send buffer (STREAM_MAX_BUFFER_KB)', () => {
  it('keeps sending to a client that reads, whatever it was sent', async () => {
    const stream = streamOn(marksFrom(1n));
    await stream.started;
    expect(stream.subscribed).toHaveLength(1);
    for (let page = 0; page < 20; page++) stream.connection.positions(livePage(BigInt(10 + page), 10));
    expect(stream.response.events.filter((event) => event.event === 'position')).toHaveLength(200);
    expect(stream.isClosed()).toBe(false);
  });

  it('resets and closes a live client once more than the cap waits for it, with the id it stands at', async () => {
    const stream = streamOn(marksFrom(1n));
    await stream.started;
    stream.response.reading = false;
    let pages = 0;
    while (!stream.isClosed() && pages < 100) stream.connection.positions(livePage(BigInt(10 + pages++), 5));
    expect(stream.isClosed()).toBe(true);
    expect(stream.unsubscribed).toEqual(stream.subscribed);
    expect(stream.response.writableEnded).toBe(true);
    const events = stream.response.events;
    const reset = events.at(-1)!;
    expect(reset.event).toBe('reset');
    // The page that found it behind was not written: it stands at the end of the last page it was sent
    // (transaction n, handed out through n + 1), so resuming from the reset's id loses nothing.
    const lastPosition = events.filter((event) => event.event === 'position').at(-1)!;
    const lastXid = streamMarkOf(lastPosition.id)!.positions.xid;
    expect(JSON.parse(reset.data).lastEventId).toBe(reset.id);
    expect(streamMarkOf(reset.id)!.positions).toEqual({ xid: lastXid + 1n, vehicleId: 0, fixTimeUs: 0 });
    // What the server held for it: the cap and the one page written on top of it, not more.
    expect(stream.response.writableLength).toBeLessThan(CAP + 6 * (EVENT_JSON.length + 200));
  });

  it('reads history a page at a time, the next page only once the socket drained', async () => {
    const edge = marksFrom(1_000n);
    let served = 0;
    const stream = streamOn(edge, (after, limit) =>
      Array.from({ length: limit }, (_, index) => positionRow(2n, 1, after.fixTimeUs + index + 1)).filter(
        () => served++ < 10_000,
      ),
    );
    stream.response.reading = false;
    await flushPromises();
    // One page read and written; it did not leave, so nothing more is read.
    expect(stream.reads).toHaveLength(1);
    const firstPage = stream.response.writableLength;
    expect(firstPage).toBeLessThanOrEqual(CAP / 2 + EVENT_JSON.length + 200);
    expect(stream.reads[0].limit).toBeLessThan(500);
    stream.response.drain();
    await flushPromises();
    expect(stream.reads).toHaveLength(2);
    // Pages are sized by what this stream's events weighed: still within half the cap.
    expect(stream.response.writableLength).toBeLessThanOrEqual(CAP / 2 + EVENT_JSON.length + 200);
    expect(stream.isClosed()).toBe(false);
    stream.connection.shutdown();
    await stream.started;
  });

  it('catches a reading client up with every missed event in order, then joins the tail', async () => {
    const edge = marksFrom(100n);
    const history = Array.from({ length: 70 }, (_, index) => positionRow(BigInt(2 + index), 1, 1));
    const stream = streamOn(edge, (after, limit) =>
      history.filter((row) => row.mark.xid > after.xid).slice(0, limit),
    );
    await stream.started;
    const positions = stream.response.events.filter((event) => event.event === 'position');
    expect(positions.map((event) => streamMarkOf(event.id)!.positions.xid)).toEqual(
      history.map((row) => row.mark.xid),
    );
    expect(stream.subscribed).toHaveLength(1);
    expect(stream.isClosed()).toBe(false);
  });

  it('writes one page text for streams of the same view at the same marks, and one copy of its bytes when they are backed up', async () => {
    const [first, second] = [streamOn(marksFrom(1n)), streamOn(marksFrom(1n))];
    await Promise.all([first.started, second.started]);
    const page = livePage(10n, 3);
    first.connection.positions(page);
    second.connection.positions(page);
    const lastOf = (stream: typeof first) => stream.response.chunks.at(-1);
    expect(lastOf(second)).toBe(lastOf(first));
    expect(page.written.size).toBe(1);
    expect(second.response.events.filter((event) => event.event === 'position')).toHaveLength(3);

    // Both stop reading: the next page's bytes are made once and queued on both sockets.
    first.response.reading = false;
    second.response.reading = false;
    first.connection.positions(livePage(11n, 3));
    second.connection.positions(livePage(11n, 3));
    const next = livePage(12n, 3);
    first.connection.positions(next);
    second.connection.positions(next);
    expect(Buffer.isBuffer(lastOf(first))).toBe(true);
    expect(lastOf(second)).toBe(lastOf(first));

    // A stream that stands elsewhere gets its own page.
    const behind = streamOn(marksFrom(1n));
    await behind.started;
    behind.connection.positions(livePage(11n, 3));
    const shared = livePage(13n, 2);
    first.connection.positions(shared);
    behind.connection.positions(shared);
    expect(shared.written.size).toBe(2);
    // Past that page both stand at its end: the next is shared again.
    first.response.drain();
    const later = livePage(14n, 2);
    first.connection.positions(later);
    behind.connection.positions(later);
    expect(later.written.size).toBe(1);
  });
});
