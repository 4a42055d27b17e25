import { crc16Ibm } from './crc16-ibm';
import {
  CODEC12_GETINFO_COMMAND,
  CODEC16_EXAMPLE,
  CODEC8_EXAMPLE_1,
  CODEC8E_EXAMPLE,
  tcpData,
} from './test/document-examples';

describe('crc16Ibm', () => {
  it('gives the catalogued check value of CRC-16/ARC (= IBM) for "123456789"', () => {
    expect(crc16Ibm(Buffer.from('123456789', 'ascii'))).toBe(0xbb3d);
  });

  it('is 0 over nothing (initial value 0, no final XOR)', () => {
    expect(crc16Ibm(Buffer.alloc(0))).toBe(0);
  });

  it.each([
    ['Codec 8', CODEC8_EXAMPLE_1, 0xc7cf],
    ['Codec 8 Extended', CODEC8E_EXAMPLE, 0x2994],
    ['Codec 16', CODEC16_EXAMPLE, 0x5fb3],
    ['Codec 12', CODEC12_GETINFO_COMMAND, 0x4312],
  ])('matches the CRC the document states for its %s example', (_name, frame, crc) => {
    expect(crc16Ibm(tcpData(frame))).toBe(crc);
  });
});
