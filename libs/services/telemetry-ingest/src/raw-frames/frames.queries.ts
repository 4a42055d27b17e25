/**
 * SQL of the raw frame archive (`ingest.raw_frames`, `ingest.frame_replays`; docs/raw-frames.md). The
 * day partitions are the platform's TimePartitions' (RawFramePartitions). UPDATE ... RETURNING is
 * wrapped in a CTE: TypeORM's query() answers it as [rows, count] otherwise.
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

/** Columns of a chunk row as {@link insertChunks} writes them. */
const CHUNK_COLUMNS = 8;

/**
 * One INSERT for a batch of chunks, one row of parameters per chunk. The compressed frames go as
 * their own parameters, which node-postgres sends in binary: an array of bytea would be sent as text,
 * every byte as two hex digits, which the writer's thread builds and PostgreSQL parses (several MB a
 * batch at a fleet's rate).
 */
export function insertChunks(chunks: readonly ChunkRowIn[]): { text: string; values: unknown[] } {
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
export const MAX_CHUNK_SPAN_SECONDS = 3_600;

/**
 * A page of the device's ($1 IMEI) chunks that may hold frames from $2 to $3, in arrival order, after
 * the chunk ($4 received_at, $5 id; null for the first page), $6 at most.
 */
export const DEVICE_CHUNKS = `
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
export const REQUEST_REPLAY = `
  INSERT INTO ingest.frame_replays (imei, from_time, to_time) VALUES ($1, $2, $3) RETURNING id`;

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

export const REPLAY_BY_ID = `
  SELECT id, imei, from_time, to_time, requested_at, finished_at, frames, records, positions, error
  FROM ingest.frame_replays WHERE id = $1`;

/**
 * The oldest pending request, locked for the claiming transaction: another replica skips it, and a
 * replica that dies mid-replay releases it with its connection (the next one starts it over).
 */
export const CLAIM_REPLAY = `
  SELECT id, imei, from_time, to_time, requested_at, finished_at, frames, records, positions, error
  FROM ingest.frame_replays
  WHERE finished_at IS NULL
  ORDER BY id
  LIMIT 1
  FOR UPDATE SKIP LOCKED`;

/** Finishes the request ($1) with its counts ($2 frames, $3 records, $4 positions) and error ($5, or null). */
export const FINISH_REPLAY = `
  WITH finished AS (
    UPDATE ingest.frame_replays
    SET finished_at = now(), frames = $2, records = $3, positions = $4, error = $5
    WHERE id = $1
    RETURNING id
  )
  SELECT id FROM finished`;
