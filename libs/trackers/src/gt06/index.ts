/**
 * Concox GT06 (and the JM-VL02 family's 0x22/0x26/0x21 variants): framing, decoding and encoding as
 * pure functions. Sources and doubtful points: the comments beside each layout.
 */
export { crcItu } from './crc-itu';
export { Gt06Error, type Gt06ErrorReason } from './gt06-error';
export { encodeGt06Frame, readGt06Frame, type Gt06Frame } from './gt06-framing';
export type { Gt06Alarm, Gt06Fix, Gt06Lbs } from './gt06-fields';
export {
  decodeGt06,
  decodeGt06Command,
  gt06NeedsAnswer,
  GT06_PROTOCOL,
  type Gt06Message,
} from './gt06-messages';
export {
  encodeGt06Alarm,
  encodeGt06Answer,
  encodeGt06Command,
  encodeGt06CommandResponse,
  encodeGt06Gps,
  encodeGt06Login,
  encodeGt06Status,
} from './gt06-encode';
