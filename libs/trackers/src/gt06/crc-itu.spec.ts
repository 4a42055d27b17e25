import { crcItu } from './crc-itu';
import { hex } from './test/gt06-test-helpers';

describe('crcItu (CRC-16/X-25)', () => {
  it('gives the catalogue check value for "123456789"', () => {
    // RevEng CRC catalogue, CRC-16/IBM-SDLC alias X-25: check = 0x906E.
    expect(crcItu(Buffer.from('123456789', 'ascii'))).toBe(0x906e);
  });

  it('reproduces the GT06 document login example over length byte .. serial number', () => {
    // GT06 §5.1.3: 78 78 | 0D 01 01 23 45 67 89 01 23 45 00 01 | 8C DD | 0D 0A
    expect(crcItu(hex('0D 01 01 23 45 67 89 01 23 45 00 01'))).toBe(0x8cdd);
    expect(crcItu(hex('05 01 00 01'))).toBe(0xd9dc);
  });

  it('honours the start and end offsets', () => {
    const frame = hex('78 78 05 01 00 01 D9 DC 0D 0A');
    expect(crcItu(frame, 2, 6)).toBe(0xd9dc);
    expect(crcItu(frame, 2, 5)).not.toBe(0xd9dc);
  });

  it('is 0x0000 for no bytes (0xFFFF inverted)', () => {
    expect(crcItu(Buffer.alloc(0))).toBe(0x0000);
  });
});
