import { encodeAvlData, type AvlEncodeOptions } from './avl-codec';
import type { AvlData } from './avl-record';
import { ByteReader, ByteWriter } from './bytes';
import { checkImeiLength, imeiBytes, parseImei } from './imei';
import { TeltonikaError } from './teltonika-error';

/** The byte after the packet id: once a packet type, now documented as "not usable"; devices send 0x01. */
const NOT_USABLE = 0x01;

export interface TeltonikaUdpPacket {
  packetId: number;
  avlPacketId: number;
  imei: string;
  /** Codec id .. second record count, as over TCP but without a CRC: UDP's own checksum stands in. */
  data: Buffer;
}

/**
 * One datagram: 2-byte length of the rest, 2-byte packet id, the not-usable byte, 1-byte AVL packet id,
 * 2-byte IMEI length, IMEI, codec data. `maxLength` bounds the length field. A datagram arrives whole, so a
 * length that disagrees with its size either way is an error, never "incomplete".
 */
export function decodeTeltonikaUdp(datagram: Buffer, maxLength: number): TeltonikaUdpPacket {
  const reader = new ByteReader(datagram, 'UDP datagram');
  const length = reader.u16();
  if (length > maxLength) {
    throw new TeltonikaError('oversized', `datagram length ${length} exceeds the limit of ${maxLength}`);
  }
  if (reader.remaining < length) {
    throw new TeltonikaError(
      'truncated',
      `datagram length says ${length} bytes, ${reader.remaining} arrived`,
    );
  }
  if (reader.remaining > length) {
    throw new TeltonikaError('malformed', `${reader.remaining - length} byte(s) past the datagram length`);
  }
  const packetId = reader.u16();
  reader.u8();
  const avlPacketId = reader.u8();
  const imeiLength = reader.u16();
  checkImeiLength(imeiLength);
  const imei = parseImei(reader.bytes(imeiLength));
  return { packetId, avlPacketId, imei, data: reader.bytes(reader.remaining) };
}

/** The server's answer: length 5, the packet id echoed, 0x01, the AVL packet id, how many records it took. */
export function encodeTeltonikaUdpAck(ack: {
  packetId: number;
  avlPacketId: number;
  accepted: number;
}): Buffer {
  return new ByteWriter()
    .uint(5, 2, 'length')
    .uint(ack.packetId, 2, 'packet id')
    .uint(NOT_USABLE, 1, 'not-usable byte')
    .uint(ack.avlPacketId, 1, 'AVL packet id')
    .uint(ack.accepted, 1, 'accepted record count')
    .toBuffer();
}

export function encodeTeltonikaUdp(
  packet: { packetId: number; avlPacketId: number; imei: string; data: AvlData },
  options?: AvlEncodeOptions,
): Buffer {
  const imei = imeiBytes(packet.imei);
  const body = new ByteWriter()
    .uint(packet.packetId, 2, 'packet id')
    .uint(NOT_USABLE, 1, 'not-usable byte')
    .uint(packet.avlPacketId, 1, 'AVL packet id')
    .uint(imei.length, 2, 'IMEI length')
    .bytes(imei)
    .bytes(encodeAvlData(packet.data, options))
    .toBuffer();
  return new ByteWriter().uint(body.length, 2, 'datagram length', 'oversized').bytes(body).toBuffer();
}
