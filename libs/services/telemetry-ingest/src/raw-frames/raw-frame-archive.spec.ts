import { FleetMetrics } from '@fleet/platform';
import { TelemetryIngestConfig } from '../telemetry-ingest.config';
import { ReceivedFrame, readFrameChunk } from './frame-chunk';
import { ChunkRowIn, RawFrameQueries } from './frames.queries';
import { RawFrameArchive } from './raw-frame-archive';

/**
 * The archive's queries (RawFrameQueries.insertChunks) over a database that records the chunks written,
 * fails while told to, and completes writes when told to.
 */
class FakeDatabase implements Pick<RawFrameQueries, 'insertChunks'> {
  readonly inserts: ChunkRowIn[][] = [];
  inFlight = 0;
  mostInFlight = 0;
  failing = false;
  private held?: { promise: Promise<void>; release: () => void };

  hold(): void {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.held = { promise, release };
  }

  release(): void {
    this.held?.release();
    this.held = undefined;
  }

  async insertChunks(chunks: readonly ChunkRowIn[]): Promise<void> {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      await this.held?.promise;
      if (this.failing) throw new Error('database away');
      this.inserts.push([...chunks]);
    } finally {
      this.inFlight--;
    }
  }

  get rows(): ChunkRowIn[] {
    return this.inserts.flat();
  }
}

const base = new Date('2026-03-02T08:00:00.000Z').getTime();
const IMEI = '356307042441013';

const frame = (seconds: number, overrides: Partial<ReceivedFrame> = {}): ReceivedFrame => ({
  protocol: 'teltonika-tcp',
  imei: IMEI,
  vehicleId: 7,
  peer: '10.0.0.7',
  receivedAt: new Date(base + seconds * 1000),
  bytes: Buffer.from([0, 0, 0, 0, seconds & 0xff]),
  outcome: 'accepted 1/1',
  ...overrides,
});

function archiveOn(database: FakeDatabase, rawFrames: Partial<TelemetryIngestConfig['rawFrames']> = {}) {
  const metrics = new FleetMetrics('telemetry-ingest');
  const config = {
    rawFrames: {
      retentionDays: 7,
      partitionDaysAhead: 2,
      chunkSeconds: 60,
      bufferBytes: 1024 * 1024,
      ...rawFrames,
    },
  } as TelemetryIngestConfig;
  const archive = new RawFrameArchive(database as unknown as RawFrameQueries, config, metrics);
  const dropped = async (reason: string) =>
    (await metrics.rawFramesDropped.get()).values.find((value) => value.labels.reason === reason)?.value ?? 0;
  return { archive, dropped };
}

describe('RawFrameArchive', () => {
  it("writes each device's frames as one compressed chunk, all chunks in one INSERT", async () => {
    const database = new FakeDatabase();
    const { archive } = archiveOn(database);
    archive.keep(frame(0, { outcome: 'login' }));
    archive.keep(frame(5));
    archive.keep(
      frame(6, { imei: undefined, vehicleId: undefined, peer: '10.9.9.9', outcome: 'malformed: x' }),
    );
    archive.keep(frame(10, { outcome: 'crc' }));
    expect(database.inserts).toEqual([]);
    await archive.flush();
    expect(database.inserts).toHaveLength(1);
    const [device, stranger] = database.rows;
    expect(device).toMatchObject({
      receivedAt: new Date(base),
      lastReceivedAt: new Date(base + 10_000),
      protocol: 'teltonika-tcp',
      imei: IMEI,
      vehicleId: 7,
      peer: '10.0.0.7',
      frameCount: 3,
    });
    expect(
      readFrameChunk(device.receivedAt, device.frames).map((kept) => [
        kept.receivedAt,
        kept.outcome,
        kept.bytes,
      ]),
    ).toEqual([
      [new Date(base), 'login', frame(0).bytes],
      [new Date(base + 5_000), 'accepted 1/1', frame(5).bytes],
      [new Date(base + 10_000), 'crc', frame(10).bytes],
    ]);
    expect(stranger).toMatchObject({ imei: null, vehicleId: null, peer: '10.9.9.9', frameCount: 1 });
    expect(archive.pendingFrames).toBe(0);
  });

  it('starts a new chunk once the first frame of the open one is RAW_FRAMES_CHUNK_SECONDS old', async () => {
    const database = new FakeDatabase();
    const { archive } = archiveOn(database, { chunkSeconds: 60 });
    for (const seconds of [0, 30, 59.999, 60, 90]) archive.keep(frame(seconds));
    await archive.flush();
    expect(database.rows.map((row) => [row.receivedAt, row.frameCount])).toEqual([
      [new Date(base), 3],
      [new Date(base + 60_000), 2],
    ]);
  });

  it('keeps a frame handled after a later one: later ones in its chunk, an earlier one in the next', async () => {
    const database = new FakeDatabase();
    const { archive } = archiveOn(database, { chunkSeconds: 60 });
    for (const seconds of [10, 12, 11, 9, 13]) archive.keep(frame(seconds));
    await archive.flush();
    const chunks = database.rows.map((row) => ({
      range: [row.receivedAt, row.lastReceivedAt],
      frames: readFrameChunk(row.receivedAt, row.frames).map((kept) => kept.receivedAt.getTime() - base),
    }));
    expect(chunks).toEqual([
      { range: [new Date(base + 10_000), new Date(base + 12_000)], frames: [10_000, 12_000, 11_000] },
      { range: [new Date(base + 9_000), new Date(base + 13_000)], frames: [9_000, 13_000] },
    ]);
  });

  it('copies the bytes it keeps: the port may reuse its buffer', async () => {
    const database = new FakeDatabase();
    const { archive } = archiveOn(database);
    const bytes = Buffer.from([1, 2, 3]);
    archive.keep(frame(0, { bytes }));
    bytes.fill(0);
    await archive.flush();
    const [row] = database.rows;
    expect(readFrameChunk(row.receivedAt, row.frames)[0].bytes).toEqual(Buffer.from([1, 2, 3]));
  });

  it('writes one INSERT at a time', async () => {
    const database = new FakeDatabase();
    const { archive } = archiveOn(database);
    database.hold();
    archive.keep(frame(0));
    const first = archive.flush();
    archive.keep(frame(1, { imei: '356307042441021' }));
    const second = archive.flush();
    await new Promise((resolve) => setImmediate(resolve));
    database.release();
    await Promise.all([first, second]);
    expect(database.rows).toHaveLength(2);
    expect(database.mostInFlight).toBe(1);
  });

  it('holds frames while the database is away, and drops (and counts) new ones once the buffer is full', async () => {
    const database = new FakeDatabase();
    const { archive, dropped } = archiveOn(database, { bufferBytes: 12 });
    database.failing = true;
    archive.keep(frame(0));
    archive.keep(frame(1));
    await archive.flush();
    expect(database.inserts).toEqual([]);
    expect(archive.pendingFrames).toBe(2);
    // 10 of 12 bytes held: a third frame of 5 bytes does not fit.
    archive.keep(frame(2));
    expect(archive.pendingFrames).toBe(2);
    expect(await dropped('buffer_full')).toBe(1);
    database.failing = false;
    await archive.flush();
    expect(database.rows.map((row) => row.frameCount)).toEqual([2]);
    archive.keep(frame(3));
    expect(archive.pendingFrames).toBe(1);
  });

  it('writes what it holds on shutdown, and counts what it could not write or was handed after', async () => {
    const database = new FakeDatabase();
    const { archive, dropped } = archiveOn(database);
    archive.keep(frame(0));
    await archive.beforeApplicationShutdown();
    expect(database.rows).toHaveLength(1);
    archive.keep(frame(1));
    database.failing = true;
    await archive.onApplicationShutdown();
    expect(await dropped('unwritten')).toBe(1);
    archive.keep(frame(2));
    expect(await dropped('unwritten')).toBe(2);
  });

  it('closes and writes a chunk on its own once its time has passed', async () => {
    jest.useFakeTimers({ now: base, doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const database = new FakeDatabase();
      const { archive } = archiveOn(database, { chunkSeconds: 60 });
      archive.onApplicationBootstrap();
      archive.keep(frame(0));
      // Async: the sweep is a PeriodicTask, whose run settles in a microtask before the next may start.
      await jest.advanceTimersByTimeAsync(59_000);
      expect(database.inserts).toEqual([]);
      await jest.advanceTimersByTimeAsync(1_000);
      // The chunk is compressed on libuv's thread pool, in real time: wait for its row (up to 10 s of the
      // real clock, which fake timers leave alone), not a number of turns, so a busy machine passes too.
      const deadline = process.hrtime.bigint() + 10_000_000_000n;
      while (database.rows.length === 0 && process.hrtime.bigint() < deadline) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(database.rows.map((row) => row.frameCount)).toEqual([1]);
      await archive.onApplicationShutdown();
    } finally {
      jest.useRealTimers();
    }
  });
});
