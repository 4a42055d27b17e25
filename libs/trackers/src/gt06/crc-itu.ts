/**
 * CRC-ITU as the GT06 document's Appendix A computes it: CRC-16/X-25, i.e. polynomial 0x1021
 * processed LSB-first (0x8408), initial value 0xFFFF, result inverted.
 */
const table = buildTable();

function buildTable(): Uint16Array {
  const entries = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
    entries[byte] = crc;
  }
  return entries;
}

/** CRC-ITU of `bytes[start, end)`; the frame's span is the length field through the serial number. */
export function crcItu(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ table[(crc ^ bytes[i]) & 0xff];
  return ~crc & 0xffff;
}
