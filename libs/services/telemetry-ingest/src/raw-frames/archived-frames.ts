import { ChunkFrame, FRAME_PROTOCOLS, FrameProtocol, readFrameChunk } from './frame-chunk';
import { ChunkPage, ChunkRowOut } from './frames.queries';

/** Chunks read per query: a page of frames (up to a few thousand) in memory at a time. */
const CHUNKS_PER_PAGE = 200;

/** An archived frame with its chunk's device. */
export interface ArchivedFrame extends ChunkFrame {
  protocol: FrameProtocol;
  imei: string;
  vehicleId: number | null;
}

/** Reads one page of a device's chunks: RawFrameQueries.deviceChunks, on a DataSource or in a transaction. */
export type ChunkPages = (page: ChunkPage) => Promise<ChunkRowOut[]>;

export interface FrameRange {
  imei: string;
  from: Date;
  to: Date;
}

/** A stored chunk that could not be read (it is skipped; the reader goes on). */
export interface UnreadableChunk {
  id: string;
  receivedAt: Date;
  error: Error;
}

const isProtocol = (protocol: string): protocol is FrameProtocol =>
  (FRAME_PROTOCOLS as readonly string[]).includes(protocol);

/**
 * A device's archived frames from `from` to `to` (both included), a page at a time, each page in
 * arrival order (pages follow one another in the order of their chunks' first frames).
 */
export async function* archivedFrames(
  chunkPages: ChunkPages,
  { imei, from, to }: FrameRange,
  unreadable: (chunk: UnreadableChunk) => void = () => undefined,
): AsyncGenerator<ArchivedFrame[]> {
  let after: ChunkRowOut | undefined;
  for (;;) {
    const rows = await chunkPages({ imei, from, to, after, limit: CHUNKS_PER_PAGE });
    const page: ArchivedFrame[] = [];
    for (const row of rows) {
      if (!isProtocol(row.protocol)) {
        unreadable({
          id: row.id,
          receivedAt: row.received_at,
          error: new Error(`unknown protocol ${row.protocol}`),
        });
        continue;
      }
      let frames: ChunkFrame[];
      try {
        frames = readFrameChunk(row.received_at, row.frames);
      } catch (error) {
        unreadable({ id: row.id, receivedAt: row.received_at, error: error as Error });
        continue;
      }
      for (const frame of frames) {
        if (frame.receivedAt < from || frame.receivedAt > to) continue;
        page.push({ ...frame, protocol: row.protocol, imei, vehicleId: row.vehicle_id });
      }
    }
    // Stable: frames of one chunk keep their order when their times tie.
    page.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
    if (page.length > 0) yield page;
    if (rows.length < CHUNKS_PER_PAGE) return;
    after = rows[rows.length - 1];
  }
}
