import { TeltonikaError, type TeltonikaErrorReason } from './teltonika-error';

/** Refuses what a fixed-width field cannot hold, as a TeltonikaError rather than a silently wrapped write. */
export function checkInteger(
  value: number,
  min: number,
  max: number,
  field: string,
  reason: TeltonikaErrorReason = 'malformed',
): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TeltonikaError(reason, `${field} must be an integer in ${min}..${max}, got ${value}`);
  }
}

export const hex = (value: number): string => `0x${value.toString(16).padStart(2, '0').toUpperCase()}`;

/**
 * Big-endian reads over one frame. Every read checks the length first, so a short or lying frame surfaces
 * as TeltonikaError 'truncated' and never as Buffer's RangeError.
 */
export class ByteReader {
  private offset = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly what: string,
  ) {}

  get remaining(): number {
    return this.buf.length - this.offset;
  }

  u8(): number {
    return this.buf.readUInt8(this.take(1));
  }

  u16(): number {
    return this.buf.readUInt16BE(this.take(2));
  }

  u32(): number {
    return this.buf.readUInt32BE(this.take(4));
  }

  uint(width: 1 | 2 | 4): number {
    // Fixed-width reads: Buffer's variable-width readUIntBE / readIntBE cost several times as much.
    const at = this.take(width);
    return width === 1 ? this.buf[at] : width === 2 ? this.buf.readUInt16BE(at) : this.buf.readUInt32BE(at);
  }

  int(width: 2 | 4): number {
    const at = this.take(width);
    return width === 2 ? this.buf.readInt16BE(at) : this.buf.readInt32BE(at);
  }

  u64(): bigint {
    return this.buf.readBigUInt64BE(this.take(8));
  }

  /** A copy, so a value kept in a record neither pins nor sees later writes to the receive buffer. */
  bytes(length: number): Buffer {
    const at = this.take(length);
    return Buffer.from(this.buf.subarray(at, at + length));
  }

  private take(length: number): number {
    if (length > this.remaining) {
      throw new TeltonikaError(
        'truncated',
        `${this.what}: ${length} byte(s) needed at offset ${this.offset}, ${this.remaining} left`,
      );
    }
    const at = this.offset;
    this.offset += length;
    return at;
  }
}

const MAX_U64 = 2n ** 64n - 1n;
const UNSIGNED_MAX = { 1: 0xff, 2: 0xffff, 4: 0xffff_ffff } as const;

/**
 * Big-endian writes that check each value against its field's width before writing it. Writes go into
 * one buffer that doubles when full (a buffer per field made the bench's load generator spend most of
 * its CPU in allocations: docs/performance.md, "Tracker ports").
 */
export class ByteWriter {
  private buf = Buffer.allocUnsafe(256);
  private length = 0;

  uint(value: number, width: 1 | 2 | 4, field: string, reason?: TeltonikaErrorReason): this {
    checkInteger(value, 0, UNSIGNED_MAX[width], field, reason);
    const at = this.reserve(width);
    // One fixed-width write per width: Buffer's variable-width writeUIntBE was half of the CPU of
    // encoding a packet (docs/performance.md, "Tracker ports").
    if (width === 1) this.buf[at] = value;
    else if (width === 2) this.buf.writeUInt16BE(value, at);
    else this.buf.writeUInt32BE(value, at);
    return this;
  }

  int(value: number, width: 2 | 4, field: string): this {
    const limit = 2 ** (8 * width - 1);
    checkInteger(value, -limit, limit - 1, field);
    const at = this.reserve(width);
    if (width === 2) this.buf.writeInt16BE(value, at);
    else this.buf.writeInt32BE(value, at);
    return this;
  }

  u64(value: bigint, field: string): this {
    if (value < 0n || value > MAX_U64) {
      throw new TeltonikaError('malformed', `${field} must be in 0..2^64-1, got ${value}`);
    }
    const at = this.reserve(8);
    this.buf.writeBigUInt64BE(value, at);
    return this;
  }

  bytes(part: Uint8Array): this {
    const at = this.reserve(part.length);
    this.buf.set(part, at);
    return this;
  }

  /** What was written, as a buffer of its own (later writes do not reach it). */
  toBuffer(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.length));
  }

  /** Makes room for `width` more bytes (the buffer may be replaced) and returns their offset. */
  private reserve(width: number): number {
    const at = this.length;
    this.length += width;
    if (this.length > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length));
      this.buf.copy(grown, 0, 0, at);
      this.buf = grown;
    }
    return at;
  }
}
