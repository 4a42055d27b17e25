/**
 * Teltonika's wire protocol (Codec 8, 8 Extended, 16 data over TCP and UDP; Codec 12 GPRS commands) as
 * pure functions over bytes, after the public "Teltonika Data Sending Protocols" document.
 */
export type { AvlData, AvlRecord, IoValue, TeltonikaCodecId } from './avl-record';
export { TeltonikaError, type TeltonikaErrorReason } from './teltonika-error';
export { crc16Ibm } from './crc16-ibm';
export { decodeAvlData, encodeAvlData, isAvlCodecId, type AvlEncodeOptions } from './avl-codec';
export {
  encodeLoginAnswer,
  encodeTeltonikaAck,
  encodeTeltonikaLogin,
  encodeTeltonikaTcpFrame,
  encodeTeltonikaTcpPacket,
  readTeltonikaLogin,
  readTeltonikaTcpFrame,
  type TeltonikaTcpFrame,
} from './tcp-framing';
export {
  decodeCodec12,
  encodeCodec12Command,
  encodeCodec12Response,
  isCodec12,
  type Codec12Message,
  type Codec12Type,
} from './codec12';
export {
  decodeTeltonikaUdp,
  encodeTeltonikaUdp,
  encodeTeltonikaUdpAck,
  type TeltonikaUdpPacket,
} from './udp';
