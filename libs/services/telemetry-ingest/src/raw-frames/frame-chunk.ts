import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';

/** The tracker ports whose frames are archived (docs/raw-frames.md). */
export const FRAME_PROTOCOLS = ['teltonika-tcp', 'teltonika-udp', 'gt06', 'osmand'] as const;
export type FrameProtocol = (typeof FRAME_PROTOCOLS)[number];

/** One frame as a port received it, and what became of it. */
export interface ReceivedFrame {
  protocol: FrameProtocol;
  /** Unknown before a login (and for bytes that named no device). */
  imei?: string;
  vehicleId?: number;
  /** The sender's address as the socket reports it. */
  peer: string;
  receivedAt: Date;
  bytes: Buffer;
  /** What the port made of it, short: `accepted 3/3`, `crc`, `malformed: …` (docs/raw-frames.md). */
  outcome: string;
}

/** A frame as it is stored inside a chunk: the chunk's row holds protocol, device and vehicle. */
export interface ChunkFrame {
  receivedAt: Date;
  peer: string;
  outcome: string;
  bytes: Buffer;
}

/** The layout's version, first byte of every payload: a stored chunk is read by the code of its version. */
const CHUNK_VERSION = 1;
/** Longest outcome and peer kept (one length byte each); a longer one is cut. */
export const MAX_OUTCOME_LENGTH = 120;
const MAX_PEER_LENGTH = 255;
/** Per frame: offset from the chunk's start (ms, 4 bytes), peer and outcome lengths (1 each), frame length (4). */
const FRAME_HEADER = 10;

/** A stored chunk whose payload does not read as one. */
export class FrameChunkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameChunkError';
  }
}

/** `text` cut to `max` bytes of UTF-8, never inside a character. */
function cut(text: string, max: number): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return bytes;
  let end = max;
  // Back off continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/**
 * The uncompressed payload of a chunk of frames, in the order given: a version byte, then per frame
 * its time as milliseconds after `start`, its peer, its outcome and its bytes. Frames of one device in
 * a row resemble one another (same IMEI, nearby coordinates, the same IO ids), which is what makes the
 * compressed chunk small (docs/raw-frames.md has the figures).
 */
export function encodeFrameChunk(start: Date, frames: readonly ChunkFrame[]): Buffer {
  const parts: Buffer[] = [Buffer.from([CHUNK_VERSION])];
  for (const frame of frames) {
    const offset = frame.receivedAt.getTime() - start.getTime();
    if (!Number.isInteger(offset) || offset < 0 || offset > 0xffff_ffff) {
      throw new FrameChunkError(`a frame at ${frame.receivedAt.toISOString()} is outside its chunk`);
    }
    const peer = cut(frame.peer, MAX_PEER_LENGTH);
    const outcome = cut(frame.outcome, MAX_OUTCOME_LENGTH);
    const header = Buffer.alloc(FRAME_HEADER);
    header.writeUInt32BE(offset, 0);
    header[4] = peer.length;
    header[5] = outcome.length;
    header.writeUInt32BE(frame.bytes.length, 6);
    parts.push(header, peer, outcome, frame.bytes);
  }
  return Buffer.concat(parts);
}

/** The frames of an uncompressed payload; `start` is its chunk's `received_at`. */
export function decodeFrameChunk(start: Date, payload: Buffer): ChunkFrame[] {
  if (payload.length === 0 || payload[0] !== CHUNK_VERSION) {
    throw new FrameChunkError(`unknown chunk layout ${payload.length === 0 ? '(empty)' : payload[0]}`);
  }
  const frames: ChunkFrame[] = [];
  let at = 1;
  while (at < payload.length) {
    if (at + FRAME_HEADER > payload.length) throw new FrameChunkError(`frame header cut short at byte ${at}`);
    const offset = payload.readUInt32BE(at);
    const peerLength = payload[at + 4];
    const outcomeLength = payload[at + 5];
    const bytesLength = payload.readUInt32BE(at + 6);
    const end = at + FRAME_HEADER + peerLength + outcomeLength + bytesLength;
    if (end > payload.length) throw new FrameChunkError(`frame at byte ${at} runs past the payload`);
    let field = at + FRAME_HEADER;
    const peer = payload.toString('utf8', field, (field += peerLength));
    const outcome = payload.toString('utf8', field, (field += outcomeLength));
    frames.push({
      receivedAt: new Date(start.getTime() + offset),
      peer,
      outcome,
      bytes: Buffer.from(payload.subarray(field, end)),
    });
    at = end;
  }
  return frames;
}

const deflateRawAsync = promisify(deflateRaw);

/**
 * The stored form of a chunk: raw DEFLATE (zlib's default level) of its payload, done on libuv's
 * thread pool so that compressing a batch never holds the event loop the device ports share.
 */
export function compressFrameChunk(start: Date, frames: readonly ChunkFrame[]): Promise<Buffer> {
  return deflateRawAsync(encodeFrameChunk(start, frames));
}

/** The frames of a stored chunk (listing and replay: operator paths, not the ingest path). */
export function readFrameChunk(start: Date, stored: Buffer): ChunkFrame[] {
  let payload: Buffer;
  try {
    payload = inflateRawSync(stored);
  } catch (error) {
    throw new FrameChunkError(`chunk does not inflate: ${(error as Error).message}`);
  }
  return decodeFrameChunk(start, payload);
}
