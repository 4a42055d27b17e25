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

/** Where a chunk's payload starts growing from: a few frames; it doubles as frames arrive. */
const INITIAL_PAYLOAD_BYTES = 512;

/**
 * A chunk's uncompressed payload, written as its frames arrive: a version byte, then per frame its time
 * as milliseconds after the chunk's `start`, its peer, its outcome (each cut to its limit between
 * characters) and its bytes. Frames of one device in a row resemble one another (same IMEI, nearby
 * coordinates, the same IO ids), which is what makes the compressed chunk small (docs/raw-frames.md
 * has the figures).
 *
 * One growing buffer per chunk instead of a copy, a Date and an object per frame: those were 271 bytes
 * of JavaScript objects per frame (measured with `--expose-gc`, 60,000 frames of 600 bytes), held for
 * the chunk's minute, so they all reached V8's old generation; now a frame leaves nothing on the heap,
 * and its bytes sit in the chunk's buffer (which doubles as it fills, so up to twice the frames' size).
 */
export class FrameChunkWriter {
  private buffer = Buffer.allocUnsafeSlow(INITIAL_PAYLOAD_BYTES);
  private length = 1;
  private count = 0;

  /** `start`: epoch ms of the chunk's `received_at`; no frame of it is earlier. */
  constructor(readonly start: number) {
    this.buffer[0] = CHUNK_VERSION;
  }

  /** Appends a frame received at `at` (epoch ms, not before `start`, within 2^32 ms of it). */
  append(at: number, peer: string, outcome: string, bytes: Uint8Array): void {
    const offset = at - this.start;
    if (!Number.isInteger(offset) || offset < 0 || offset > 0xffff_ffff) {
      throw new FrameChunkError(`a frame at ${new Date(at).toISOString()} is outside its chunk`);
    }
    this.reserve(FRAME_HEADER + MAX_PEER_LENGTH + MAX_OUTCOME_LENGTH + bytes.length);
    const header = this.length;
    let cursor = header + FRAME_HEADER;
    // Buffer#write never writes part of a character: a text past its limit is cut between characters.
    const peerLength = this.buffer.write(peer, cursor, MAX_PEER_LENGTH, 'utf8');
    cursor += peerLength;
    const outcomeLength = this.buffer.write(outcome, cursor, MAX_OUTCOME_LENGTH, 'utf8');
    cursor += outcomeLength;
    this.buffer.set(bytes, cursor);
    this.buffer.writeUInt32BE(offset, header);
    this.buffer[header + 4] = peerLength;
    this.buffer[header + 5] = outcomeLength;
    this.buffer.writeUInt32BE(bytes.length, header + 6);
    this.length = cursor + bytes.length;
    this.count++;
  }

  /** Frames appended. */
  get frames(): number {
    return this.count;
  }

  /** The payload so far (a view: appending again may move it). */
  get payload(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** The uncompressed payload of a chunk of frames, in the order given (FrameChunkWriter's layout). */
export function encodeFrameChunk(start: Date, frames: readonly ChunkFrame[]): Buffer {
  const writer = new FrameChunkWriter(start.getTime());
  for (const frame of frames)
    writer.append(frame.receivedAt.getTime(), frame.peer, frame.outcome, frame.bytes);
  return writer.payload;
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
 * The stored form of a chunk's payload: raw DEFLATE (zlib's default level), done on libuv's thread
 * pool so that compressing a batch never holds the event loop the device ports share.
 */
export function compressFramePayload(payload: Buffer): Promise<Buffer> {
  return deflateRawAsync(payload);
}

/** The stored form of a chunk of frames (compressFramePayload of encodeFrameChunk). */
export function compressFrameChunk(start: Date, frames: readonly ChunkFrame[]): Promise<Buffer> {
  return compressFramePayload(encodeFrameChunk(start, frames));
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
