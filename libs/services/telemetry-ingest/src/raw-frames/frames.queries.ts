import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';

/**
 * SQL of the raw frame archive (`ingest.raw_frames`, `ingest.frame_replays`; docs/raw-frames.md), and
 * RawFrameQueries below, which runs it typed in and out. The day partitions are the platform's
 * TimePartitions' (RawFramePartitions). UPDATE ... RETURNING is wrapped in a CTE: TypeORM's query()
 * answers it as [rows, count] otherwise.
 */

/** A chunk as written: one device's frames, compressed (raw-frames/frame-chunk.ts). */
export interface ChunkRowIn {
  receivedAt: Date;
  lastReceivedAt: Date;
  protocol: string;
  imei: string | null;
  vehicleId: number | null;
  peer: string;
  frameCount: number;
  frames: Buffer;
}

/** Columns of a chunk row as {@link chunksInsert} writes them. */
const CHUNK_COLUMNS = 8;

/**
 * One INSERT for a batch of chunks, one row of parameters per chunk. The compressed frames go as
 * their own parameters, which node-postgres sends in binary: an array of bytea would be sent as text,
 * every byte as two hex digits, which the writer's thread builds and PostgreSQL parses (several MB a
 * batch at a fleet's rate).
 */
function chunksInsert(chunks: readonly ChunkRowIn[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const rows = chunks.map((chunk, index) => {
    values.push(
      chunk.receivedAt,
      chunk.lastReceivedAt,
      chunk.protocol,
      chunk.imei,
      chunk.vehicleId,
      chunk.peer,
      chunk.frameCount,
      chunk.frames,
    );
    const first = index * CHUNK_COLUMNS;
    return `($${first + 1}::timestamptz, $${first + 2}::timestamptz, $${first + 3}, $${first + 4}, $${first + 5}::integer, $${first + 6}, $${first + 7}::integer, $${first + 8}::bytea)`;
  });
  return {
    text: `INSERT INTO ingest.raw_frames
    (received_at, last_received_at, protocol, imei, vehicle_id, peer, frame_count, frames)
  VALUES ${rows.join(',\n  ')}`,
    values,
  };
}

/** A chunk as read (pg returns bigint as text). */
export interface ChunkRowOut {
  id: string;
  received_at: Date;
  protocol: string;
  imei: string | null;
  vehicle_id: number | null;
  frames: Buffer;
}

/**
 * Longest a chunk spans, with room to spare (RAW_FRAMES_CHUNK_SECONDS is at most 600): a chunk that
 * began this long before a range can still hold frames of it. Bounds the scan, and lets PostgreSQL
 * skip the day partitions before the range.
 */
const MAX_CHUNK_SPAN_SECONDS = 3_600;

/**
 * A page of the device's ($1 IMEI) chunks that may hold frames from $2 to $3, in arrival order, after
 * the chunk ($4 received_at, $5 id; null for the first page), $6 at most.
 */
const DEVICE_CHUNKS = `
  SELECT id, received_at, protocol, imei, vehicle_id, frames
  FROM ingest.raw_frames
  WHERE imei = $1
    AND received_at >= $2::timestamptz - make_interval(secs => ${MAX_CHUNK_SPAN_SECONDS})
    AND received_at <= $3::timestamptz
    AND last_received_at >= $2::timestamptz
    AND ($4::timestamptz IS NULL OR (received_at, id) > ($4::timestamptz, $5::bigint))
  ORDER BY received_at, id
  LIMIT $6`;

/** Stores a replay request ($1 IMEI, $2 from, $3 to); answers its id. */
const REQUEST_REPLAY = `
  INSERT INTO ingest.frame_replays (imei, from_time, to_time) VALUES ($1, $2, $3) RETURNING id`;

/** A replay request as stored: the range asked for, and once finished, its counts or error. */
export interface ReplayRow {
  id: number;
  imei: string;
  from_time: Date;
  to_time: Date;
  requested_at: Date;
  finished_at: Date | null;
  frames: number | null;
  records: number | null;
  positions: number | null;
  error: string | null;
}

/** The replay request $1. */
const REPLAY_BY_ID = `
  SELECT id, imei, from_time, to_time, requested_at, finished_at, frames, records, positions, error
  FROM ingest.frame_replays WHERE id = $1`;

/**
 * The oldest pending request, locked for the claiming transaction: another replica skips it, and a
 * replica that dies mid-replay releases it with its connection (the next one starts it over).
 */
const CLAIM_REPLAY = `
  SELECT id, imei, from_time, to_time, requested_at, finished_at, frames, records, positions, error
  FROM ingest.frame_replays
  WHERE finished_at IS NULL
  ORDER BY id
  LIMIT 1
  FOR UPDATE SKIP LOCKED`;

/** Finishes the request ($1) with its counts ($2 frames, $3 records, $4 positions) and error ($5, or null). */
const FINISH_REPLAY = `
  WITH finished AS (
    UPDATE ingest.frame_replays
    SET finished_at = now(), frames = $2, records = $3, positions = $4, error = $5
    WHERE id = $1
    RETURNING id
  )
  SELECT id FROM finished`;

/** One page of a device's chunks ({@link DEVICE_CHUNKS}): the range, the chunk it follows, its size. */
export interface ChunkPage {
  imei: string;
  from: Date;
  to: Date;
  /** The last chunk of the page before; undefined for the first page. */
  after: ChunkRowOut | undefined;
  limit: number;
}

/** What a finished replay did. */
export interface ReplayOutcome {
  frames: number;
  records: number;
  positions: number;
  /** A problem worth recording, or null. */
  error: string | null;
}

/**
 * The statements above, typed. Those of a replay run in the transaction that holds its request
 * (FrameReplayer), so they take its `manager`.
 */
@Injectable()
export class RawFrameQueries {
  constructor(@InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource) {}

  /** Writes the chunks in one INSERT ({@link chunksInsert}). */
  async insertChunks(chunks: readonly ChunkRowIn[]): Promise<void> {
    const insert = chunksInsert(chunks);
    await this.dataSource.query(insert.text, insert.values);
  }

  /** A page of the device's chunks (DEVICE_CHUNKS), read in `manager`'s transaction when given. */
  async deviceChunks(page: ChunkPage, manager?: EntityManager): Promise<ChunkRowOut[]> {
    return (manager ?? this.dataSource).query(DEVICE_CHUNKS, [
      page.imei,
      page.from,
      page.to,
      page.after?.received_at ?? null,
      page.after?.id ?? null,
      page.limit,
    ]);
  }

  /** Stores a request to replay the device's frames from `from` to `to` (REQUEST_REPLAY); its id. */
  async requestReplay(imei: string, from: Date, to: Date): Promise<number> {
    const [{ id }] = (await this.dataSource.query(REQUEST_REPLAY, [imei, from, to])) as { id: number }[];
    return id;
  }

  /** The replay request `id` (REPLAY_BY_ID); undefined when there is none. */
  async replayById(id: number): Promise<ReplayRow | undefined> {
    const [row] = (await this.dataSource.query(REPLAY_BY_ID, [id])) as ReplayRow[];
    return row;
  }

  /** Claims the oldest pending request for `manager`'s transaction (CLAIM_REPLAY); undefined when none is free. */
  async claimReplay(manager: EntityManager): Promise<ReplayRow | undefined> {
    const [request] = (await manager.query(CLAIM_REPLAY)) as ReplayRow[];
    return request;
  }

  /** Finishes the request `id` with what the replay did (FINISH_REPLAY). */
  async finishReplay(manager: EntityManager, id: number, outcome: ReplayOutcome): Promise<void> {
    await manager.query(FINISH_REPLAY, [
      id,
      outcome.frames,
      outcome.records,
      outcome.positions,
      outcome.error,
    ]);
  }
}
