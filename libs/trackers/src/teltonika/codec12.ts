import { ByteReader, ByteWriter, hex } from './bytes';
import { encodeTeltonikaTcpFrame } from './tcp-framing';
import { TeltonikaError } from './teltonika-error';

const CODEC_12 = 0x0c;
const COMMAND = 0x05;
const RESPONSE = 0x06;

export type Codec12Type = typeof COMMAND | typeof RESPONSE;

export interface Codec12Message {
  type: Codec12Type;
  text: string;
}

/** Codec 12 replies arrive on the same TCP stream as AVL data; the codec id is the only difference. */
export function isCodec12(data: Buffer): boolean {
  return data.length > 0 && data[0] === CODEC_12;
}

/** A server-to-device GPRS command as a complete TCP frame. */
export function encodeCodec12Command(text: string): Buffer {
  return encodeTeltonikaTcpFrame(encodeCodec12Data(COMMAND, text));
}

/** The device's answer to a command (for the simulator and tests), as a complete TCP frame. */
export function encodeCodec12Response(text: string): Buffer {
  return encodeTeltonikaTcpFrame(encodeCodec12Data(RESPONSE, text));
}

/**
 * The `data` of a Codec 12 frame: codec id, quantity, type, 4-byte size, text, quantity. The document says
 * the two quantities are not parsed, so they are not compared; the text is read byte for byte (latin1).
 */
export function decodeCodec12(data: Buffer): Codec12Message {
  const reader = new ByteReader(data, 'Codec 12 data');
  const codec = reader.u8();
  if (codec !== CODEC_12) throw new TeltonikaError('unknown-codec', `codec ${hex(codec)} is not Codec 12`);
  reader.u8();
  const type = reader.u8();
  if (type !== COMMAND && type !== RESPONSE) {
    throw new TeltonikaError('malformed', `Codec 12 type ${hex(type)} is neither a command nor a response`);
  }
  const text = reader.bytes(reader.u32()).toString('latin1');
  reader.u8();
  if (reader.remaining > 0) {
    throw new TeltonikaError('malformed', `${reader.remaining} byte(s) after the closing quantity`);
  }
  return { type, text };
}

function encodeCodec12Data(type: Codec12Type, text: string): Buffer {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f)
      throw new TeltonikaError('malformed', `Codec 12 text must be ASCII (at ${i})`);
  }
  const body = Buffer.from(text, 'latin1');
  return new ByteWriter()
    .uint(CODEC_12, 1, 'codec id')
    .uint(1, 1, 'quantity')
    .uint(type, 1, 'type')
    .uint(body.length, 4, 'text size', 'oversized')
    .bytes(body)
    .uint(1, 1, 'quantity')
    .toBuffer();
}
