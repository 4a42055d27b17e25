import { FleetMetrics, PeriodicTask } from '@fleet/platform';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { compressFramePayload, FrameChunkWriter, ReceivedFrame } from './frame-chunk';
import { ChunkRowIn, RawFrameQueries } from './frames.queries';

/** How often chunks past their time are closed, and a failed write is tried again at the earliest. */
const SWEEP_INTERVAL_MS = 1_000;
/**
 * A chunk is closed early at this many bytes of frames: DEFLATE's window is 32 KB, so a larger chunk
 * compresses no better, and a chatty device does not make one huge row.
 */
const MAX_CHUNK_BYTES = 32 * 1024;
/** Most frames in one INSERT (its chunks' frames together): a statement of a few hundred kilobytes. */
const MAX_FRAMES_PER_INSERT = 5_000;
/** Most chunks in one INSERT: eight parameters each, well inside PostgreSQL's 65,535. */
const MAX_CHUNKS_PER_INSERT = 1_000;
/**
 * Chunks compressed at once: the size of libuv's thread pool, which runs no more anyway. Each
 * compression holds DEFLATE's state (about 256 KB) from its start, so starting a whole batch's at once
 * made 10,000 devices' chunks, closing in the same sweep, cost telemetry-ingest 190 MB for a moment.
 */
const COMPRESSIONS_AT_ONCE = 4;
/** Longest wait before a failed write is tried again (doubling from one sweep). */
const MAX_RETRY_DELAY_MS = 30_000;

interface OpenChunk {
  protocol: ReceivedFrame['protocol'];
  imei?: string;
  vehicleId?: number;
  /** The sender of its first frame. */
  peer: string;
  /** Its frames, encoded as they came; `writer.start` (its first frame's arrival) gives its age. */
  writer: FrameChunkWriter;
  /** Arrival of its latest frame. */
  lastAt: number;
  /** Bytes of its frames (what RAW_FRAMES_BUFFER_MB counts). */
  bytes: number;
}

/**
 * The raw frame archive's writer (docs/raw-frames.md): every frame a tracker port received, with its
 * device, arrival time, peer and outcome, kept for RAW_FRAMES_RETENTION_DAYS. A port hands each frame
 * to {@link keep}, which only appends it to its device's open chunk in memory: it never waits and never
 * throws. A chunk closes once its first frame is RAW_FRAMES_CHUNK_SECONDS old (or it holds 32 KB), and
 * closed chunks are compressed (on the thread pool) and written by one writer, many chunks per INSERT,
 * one INSERT at a time, so the archive costs the ingest path a copy of the frame and a map lookup.
 *
 * While the database is away closed chunks wait and are written when it is back; once
 * RAW_FRAMES_BUFFER_MB of frames wait, new frames are dropped and counted
 * (`fleet_raw_frames_dropped_total`). On shutdown every chunk is closed and written (before the tracker
 * ports close, and once more after: the frames of requests finishing meanwhile).
 */
@Injectable()
export class RawFrameArchive
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger(RawFrameArchive.name);
  /** Open chunks by device (or by peer before a login), oldest first (a Map keeps insertion order). */
  private readonly open = new Map<string, OpenChunk>();
  /** Closed chunks waiting to be written, oldest first. */
  private readonly closed: OpenChunk[] = [];
  /** Bytes of frames held, open and closed. */
  private held = 0;
  private writing?: Promise<void>;
  /** Closes chunks that are due and starts the writer, every SWEEP_INTERVAL_MS. */
  private readonly sweeper = new PeriodicTask(
    'raw frame sweep',
    SWEEP_INTERVAL_MS,
    async () => this.sweep(),
    this.logger,
    { runAtStart: false },
  );
  private retryAt = 0;
  private retryDelayMs = SWEEP_INTERVAL_MS;
  private stopped = false;

  constructor(
    private readonly queries: RawFrameQueries,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
    private readonly metrics: FleetMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    await this.flush();
    this.stopped = true;
    const lost = this.closed.reduce((count, chunk) => count + chunk.writer.frames, 0);
    if (lost > 0) {
      this.metrics.rawFramesDropped.inc({ reason: 'unwritten' }, lost);
      this.logger.error({ msg: 'raw frames not written before the stop', frames: lost });
    }
  }

  /** Takes a copy of the frame into its device's chunk. Never waits, never throws. */
  keep(frame: ReceivedFrame): void {
    try {
      const size = frame.bytes.length;
      if (this.stopped || this.held + size > this.config.rawFrames.bufferBytes) {
        this.metrics.rawFramesDropped.inc({ reason: this.stopped ? 'unwritten' : 'buffer_full' });
        return;
      }
      const at = frame.receivedAt.getTime();
      // Before a login there is no device: such frames are kept together by their sender.
      const key = `${frame.protocol}\u0000${frame.imei ?? `@${frame.peer}`}\u0000${frame.vehicleId ?? ''}`;
      let chunk = this.open.get(key);
      // A frame whose handling ended after a later one's may be earlier than the chunk's first: it
      // starts the next chunk, so that no chunk holds a frame before its start.
      if (
        chunk &&
        (at - chunk.writer.start >= this.config.rawFrames.chunkSeconds * 1000 || at < chunk.writer.start)
      ) {
        this.close(key, chunk);
        chunk = undefined;
      }
      if (!chunk) {
        chunk = {
          protocol: frame.protocol,
          imei: frame.imei,
          vehicleId: frame.vehicleId,
          peer: frame.peer,
          writer: new FrameChunkWriter(at),
          lastAt: at,
          bytes: 0,
        };
        this.open.set(key, chunk);
      }
      // Encoded into the chunk's own buffer: the port may reuse its buffer.
      chunk.writer.append(at, frame.peer, frame.outcome, frame.bytes);
      chunk.lastAt = Math.max(chunk.lastAt, at);
      chunk.bytes += size;
      this.held += size;
      if (chunk.bytes >= MAX_CHUNK_BYTES) this.close(key, chunk);
    } catch (error) {
      this.logger.error({ msg: 'raw frame not kept', err: error });
    }
  }

  /** Closes every chunk and writes all that waits; resolves when written or when a write failed. */
  async flush(): Promise<void> {
    for (const [key, chunk] of this.open) this.close(key, chunk);
    this.retryAt = 0;
    await this.writing;
    this.write();
    await this.writing;
  }

  /** Frames held in memory, open or waiting to be written. */
  get pendingFrames(): number {
    let count = this.closed.reduce((sum, chunk) => sum + chunk.writer.frames, 0);
    for (const chunk of this.open.values()) count += chunk.writer.frames;
    return count;
  }

  private close(key: string, chunk: OpenChunk): void {
    this.open.delete(key);
    this.closed.push(chunk);
  }

  /**
   * Closes the chunks past their time (the oldest are first in the map), and starts a write. Open
   * chunks past half the buffer are all closed early: a large fleet's minute of frames must not fill the
   * buffer while the database is fine.
   */
  private sweep(): void {
    const due = Date.now() - this.config.rawFrames.chunkSeconds * 1000;
    const crowded = this.held > this.config.rawFrames.bufferBytes / 2;
    for (const [key, chunk] of this.open) {
      if (chunk.writer.start > due && !crowded) break;
      this.close(key, chunk);
    }
    if (Date.now() >= this.retryAt) this.write();
  }

  /** Starts the writer unless it runs: one INSERT in flight at most. */
  private write(): void {
    if (this.writing || this.closed.length === 0) return;
    this.writing = this.drain().finally(() => (this.writing = undefined));
  }

  /** Writes batches until nothing waits; a failure leaves the batch first in line for a later try. */
  private async drain(): Promise<void> {
    while (this.closed.length > 0) {
      let count = 0;
      let frames = 0;
      while (
        count < this.closed.length &&
        count < MAX_CHUNKS_PER_INSERT &&
        (count === 0 || frames + this.closed[count].writer.frames <= MAX_FRAMES_PER_INSERT)
      ) {
        frames += this.closed[count].writer.frames;
        count++;
      }
      const batch = this.closed.slice(0, count);
      try {
        const rows: ChunkRowIn[] = [];
        for (let i = 0; i < batch.length; i += COMPRESSIONS_AT_ONCE) {
          const group = batch.slice(i, i + COMPRESSIONS_AT_ONCE);
          rows.push(...(await Promise.all(group.map((chunk) => this.row(chunk)))));
        }
        await this.queries.insertChunks(rows);
      } catch (error) {
        if (this.retryDelayMs === SWEEP_INTERVAL_MS) {
          this.logger.warn({
            msg: 'raw frames not written; trying again',
            frames: this.pendingFrames,
            err: error,
          });
        }
        this.retryAt = Date.now() + this.retryDelayMs;
        this.retryDelayMs = Math.min(MAX_RETRY_DELAY_MS, this.retryDelayMs * 2);
        return;
      }
      this.closed.splice(0, count);
      this.held -= batch.reduce((sum, chunk) => sum + chunk.bytes, 0);
      this.retryDelayMs = SWEEP_INTERVAL_MS;
    }
  }

  private async row(chunk: OpenChunk): Promise<ChunkRowIn> {
    return {
      receivedAt: new Date(chunk.writer.start),
      lastReceivedAt: new Date(chunk.lastAt),
      protocol: chunk.protocol,
      imei: chunk.imei ?? null,
      vehicleId: chunk.vehicleId ?? null,
      peer: chunk.peer,
      frameCount: chunk.writer.frames,
      frames: await compressFramePayload(chunk.writer.payload),
    };
  }
}
