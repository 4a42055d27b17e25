import { DataSource } from 'typeorm';
import { ArchivedFrame, archivedFrames, FrameRange } from './archived-frames';
import { decodeStoredFrame } from './frame-decoding';
import { RawFrameQueries, ReplayRow } from './frames.queries';

/** An archived frame as frames:list shows it. */
export interface ListedFrame {
  receivedAt: Date;
  /** `?` on the line of a stored chunk that could not be read. */
  protocol: ArchivedFrame['protocol'] | '?';
  peer: string;
  outcome: string;
  hex: string;
  /** What today's decoders read in it. */
  decoded: string;
}

/** A replay request and, once finished, its counts. */
export interface FrameReplayStatus {
  id: number;
  imei: string;
  from: Date;
  to: Date;
  requestedAt: Date;
  finishedAt: Date | null;
  frames: number | null;
  records: number | null;
  positions: number | null;
  error: string | null;
}

/** Frames listed when the operator gives no --limit. */
export const DEFAULT_LIST_LIMIT = 1_000;

const statusOf = (row: ReplayRow): FrameReplayStatus => ({
  id: row.id,
  imei: row.imei,
  from: row.from_time,
  to: row.to_time,
  requestedAt: row.requested_at,
  finishedAt: row.finished_at,
  frames: row.frames,
  records: row.records,
  positions: row.positions,
  error: row.error,
});

/** One line of frames:list: time, protocol, peer, outcome, hex, and the decoded summary. */
export function frameLine(frame: ListedFrame): string {
  const { receivedAt, protocol, peer, outcome, hex, decoded } = frame;
  return `${receivedAt.toISOString()} ${protocol} ${peer} [${outcome}] ${hex} | ${decoded}`;
}

/**
 * telemetry-ingest's operations on the raw frame archive for operators (`npm run admin -- frames:…`),
 * on a DataSource of the ingest schema: the CLI talks to the database only. A replay is a request row
 * that the running service carries out (FrameReplayer).
 */
export function createFrameAdmin(dataSource: DataSource) {
  const queries = new RawFrameQueries(dataSource);
  return {
    /** The device's frames of the range in arrival order, at most `limit`, decoded with today's decoders. */
    async list(range: FrameRange, limit = DEFAULT_LIST_LIMIT): Promise<ListedFrame[]> {
      const listed: ListedFrame[] = [];
      const unreadable = ({ id, receivedAt, error }: { id: string; receivedAt: Date; error: Error }) => {
        listed.push({
          receivedAt,
          protocol: '?',
          peer: '?',
          outcome: `chunk ${id} unreadable`,
          hex: '',
          decoded: error.message,
        });
      };
      for await (const page of archivedFrames(
        (chunkPage) => queries.deviceChunks(chunkPage),
        range,
        unreadable,
      )) {
        for (const frame of page) {
          if (listed.length >= limit) return listed;
          listed.push({
            receivedAt: frame.receivedAt,
            protocol: frame.protocol,
            peer: frame.peer,
            outcome: frame.outcome,
            hex: frame.bytes.toString('hex'),
            decoded: decodeStoredFrame(frame.protocol, frame.bytes, { imei: frame.imei }).summary,
          });
        }
      }
      return listed;
    },

    /** Asks the running telemetry-ingest to replay the range; answers the request. */
    async requestReplay(range: FrameRange): Promise<FrameReplayStatus> {
      const id = await queries.requestReplay(range.imei, range.from, range.to);
      return (await this.replayStatus(id))!;
    },

    async replayStatus(id: number): Promise<FrameReplayStatus | undefined> {
      const row = await queries.replayById(id);
      return row === undefined ? undefined : statusOf(row);
    },
  };
}

export type FrameAdmin = ReturnType<typeof createFrameAdmin>;
