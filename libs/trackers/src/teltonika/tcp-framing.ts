import { encodeAvlData, type AvlEncodeOptions } from './avl-codec';
import type { AvlData } from './avl-record';
import { ByteWriter, checkInteger, hex } from './bytes';
import { crc16Ibm } from './crc16-ibm';
import { checkImeiLength, imeiBytes, parseImei } from './imei';
import { TeltonikaError } from './teltonika-error';

const PREAMBLE_LENGTH = 4;
const HEADER_LENGTH = 8; // preamble + 4-byte data length
const CRC_LENGTH = 4;
/** Devices keep an idle connection open with this single byte between frames. */
const PING = 0xff;

/**
 * One unit of a Teltonika TCP stream after the login. An 'avl' frame holds any codec's data, Codec 12
 * replies included (tell them apart with isCodec12); `data` is a copy, so the caller may reuse `buf`.
 */
export type TeltonikaTcpFrame =
  { kind: 'ping'; length: 1 } | { kind: 'avl'; data: Buffer; crcValid: boolean; length: number };

/** The device's first message: 2-byte length, then the IMEI in ASCII digits. undefined until complete. */
export function readTeltonikaLogin(buf: Buffer): { imei: string; length: number } | undefined {
  if (buf.length < 2) return undefined;
  const imeiLength = buf.readUInt16BE(0);
  checkImeiLength(imeiLength);
  if (buf.length < 2 + imeiLength) return undefined;
  return { imei: parseImei(buf.subarray(2, 2 + imeiLength)), length: 2 + imeiLength };
}

/**
 * The next frame at the start of `buf` (bytes received so far), or undefined until it is complete.
 * Errors come as early as the bytes allow: a non-zero preamble byte at once, a data length above
 * `maxDataLength` as soon as the header is in, so a lying header never makes the caller buffer its body.
 */
export function readTeltonikaTcpFrame(buf: Buffer, maxDataLength: number): TeltonikaTcpFrame | undefined {
  if (buf.length === 0) return undefined;
  if (buf[0] === PING) return { kind: 'ping', length: 1 };
  for (let i = 0; i < Math.min(buf.length, PREAMBLE_LENGTH); i++) {
    if (buf[i] !== 0) {
      throw new TeltonikaError(
        'bad-preamble',
        `preamble byte ${i} is ${hex(buf[i])}, expected four zero bytes`,
      );
    }
  }
  if (buf.length < HEADER_LENGTH) return undefined;
  const dataLength = buf.readUInt32BE(PREAMBLE_LENGTH);
  if (dataLength > maxDataLength) {
    throw new TeltonikaError('oversized', `data length ${dataLength} exceeds the limit of ${maxDataLength}`);
  }
  const length = HEADER_LENGTH + dataLength + CRC_LENGTH;
  if (buf.length < length) return undefined;
  const data = Buffer.from(buf.subarray(HEADER_LENGTH, HEADER_LENGTH + dataLength));
  // Only the low half of the field is the CRC; the high half is documented as zero, and an intact frame
  // is not refused over it.
  const crcValid = (buf.readUInt32BE(HEADER_LENGTH + dataLength) & 0xffff) === crc16Ibm(data);
  return { kind: 'avl', data, crcValid, length };
}

/** The server's answer to AVL data: how many records it took, as a 4-byte integer. */
export function encodeTeltonikaAck(count: number): Buffer {
  return new ByteWriter().uint(count, 4, 'acknowledged record count').toBuffer();
}

/** One byte: 0x01 lets the device send its data, 0x00 turns it away. */
export function encodeLoginAnswer(accepted: boolean): Buffer {
  return Buffer.from([accepted ? 0x01 : 0x00]);
}

export function encodeTeltonikaLogin(imei: string): Buffer {
  const bytes = imeiBytes(imei);
  return new ByteWriter().uint(bytes.length, 2, 'IMEI length').bytes(bytes).toBuffer();
}

/** Wraps codec data (AVL or Codec 12) in preamble, length and CRC. */
export function encodeTeltonikaTcpFrame(data: Buffer): Buffer {
  checkInteger(data.length, 0, 0xffffffff, 'data length', 'oversized');
  return new ByteWriter()
    .uint(0, 4, 'preamble')
    .uint(data.length, 4, 'data length')
    .bytes(data)
    .uint(crc16Ibm(data), 4, 'CRC')
    .toBuffer();
}

export function encodeTeltonikaTcpPacket(data: AvlData, options?: AvlEncodeOptions): Buffer {
  return encodeTeltonikaTcpFrame(encodeAvlData(data, options));
}
