import { crcItu } from './crc-itu';
import { Gt06Error } from './gt06-error';

export interface Gt06Frame {
  protocol: number;
  /** The information content: the bytes between the protocol number and the serial number. */
  content: Buffer;
  serial: number;
  crcValid: boolean;
  /** Started 0x79 0x79, with a 2-byte length field (long packets such as 0x21 and 0x94). */
  extended: boolean;
}

const SHORT_START = 0x78;
const LONG_START = 0x79;
const STOP = 0x0d0a;
/** Protocol number (1), serial number (2) and error check (2): what the length counts besides content. */
const LENGTH_OVERHEAD = 5;

/**
 * Server side, reading a TCP stream: `undefined` while the frame at the start of `buf` is incomplete;
 * `length` is how many bytes of `buf` the frame used. `maxLength` bounds the packet-length field
 * (protocol number through error check) and is checked as soon as that field has arrived, so a
 * garbage length never makes the caller buffer megabytes waiting for a body.
 */
export function readGt06Frame(
  buf: Buffer,
  maxLength: number,
): { frame: Gt06Frame; length: number } | undefined {
  if (buf.length === 0) return undefined;
  const first = buf[0];
  if (first !== SHORT_START && first !== LONG_START) throw badStart(buf);
  if (buf.length < 2) return undefined;
  if (buf[1] !== first) throw badStart(buf);

  const extended = first === LONG_START;
  const headerLength = extended ? 4 : 3;
  if (buf.length < headerLength) return undefined;
  const packetLength = extended ? buf.readUInt16BE(2) : buf[2];
  if (packetLength > maxLength) {
    throw new Gt06Error('oversized', `GT06 packet length ${packetLength} exceeds the limit of ${maxLength}`);
  }
  if (packetLength < LENGTH_OVERHEAD) {
    throw new Gt06Error(
      'malformed',
      `GT06 packet length ${packetLength} is below the minimum of ${LENGTH_OVERHEAD}`,
    );
  }

  const crcAt = headerLength + packetLength - 2;
  const total = crcAt + 4;
  if (buf.length < total) return undefined;
  if (buf.readUInt16BE(crcAt + 2) !== STOP) {
    throw new Gt06Error('bad-stop', `GT06 frame does not end in 0D 0A (got ${hex(buf, crcAt + 2, 2)})`);
  }

  const frame: Gt06Frame = {
    protocol: buf[headerLength],
    // Copied: the caller typically compacts or reuses its stream buffer after this returns.
    content: Buffer.from(buf.subarray(headerLength + 1, crcAt - 2)),
    serial: buf.readUInt16BE(crcAt - 2),
    crcValid: crcItu(buf, 2, crcAt) === buf.readUInt16BE(crcAt),
    extended,
  };
  return { frame, length: total };
}

/** Builds a complete frame; 0x7979 framing when `extended` (required once the length exceeds 255). */
export function encodeGt06Frame(frame: {
  protocol: number;
  content: Uint8Array;
  serial: number;
  extended?: boolean;
}): Buffer {
  const extended = frame.extended ?? false;
  checkUint('protocol', frame.protocol, 0xff);
  checkUint('serial', frame.serial, 0xffff);
  const packetLength = frame.content.length + LENGTH_OVERHEAD;
  if (packetLength > (extended ? 0xffff : 0xff)) {
    throw new Gt06Error(
      'oversized',
      `GT06 content of ${frame.content.length} bytes does not fit a ${extended ? '0x7979' : '0x7878'} frame`,
    );
  }

  const headerLength = extended ? 4 : 3;
  const out = Buffer.alloc(headerLength + packetLength + 2);
  out[0] = out[1] = extended ? LONG_START : SHORT_START;
  if (extended) out.writeUInt16BE(packetLength, 2);
  else out[2] = packetLength;
  out[headerLength] = frame.protocol;
  out.set(frame.content, headerLength + 1);
  const crcAt = headerLength + packetLength - 2;
  out.writeUInt16BE(frame.serial, crcAt - 2);
  out.writeUInt16BE(crcItu(out, 2, crcAt), crcAt);
  out.writeUInt16BE(STOP, crcAt + 2);
  return out;
}

/** Encoder arguments are the caller's values, not the device's: a wrong one is a bug, hence RangeError. */
export function checkUint(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be an integer between 0 and ${max}, got ${value}`);
  }
}

function badStart(buf: Buffer): Gt06Error {
  return new Gt06Error('bad-start', `GT06 frame must start 78 78 or 79 79 (got ${hex(buf, 0, 2)})`);
}

function hex(buf: Buffer, start: number, count: number): string {
  return [...buf.subarray(start, start + count)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}
