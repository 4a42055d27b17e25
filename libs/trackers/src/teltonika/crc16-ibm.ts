/** CRC-16/IBM (also catalogued as CRC-16/ARC): reflected polynomial 0xA001, initial value 0, no final XOR. */
const table = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  return crc;
});

/** The checksum Teltonika TCP frames carry in the low two bytes of their 4-byte CRC field. */
export function crc16Ibm(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = (crc >>> 8) ^ table[(crc ^ byte) & 0xff];
  return crc;
}
