import { encodeGt06Gps } from './gt06-encode';
import { decodeGt06 } from './gt06-messages';
import { hex, readWhole, SOUTH_EAST, SOUTH_WEST } from './test/gt06-test-helpers';

const roundTrip = (bytes: Buffer) => decodeGt06(readWhole(bytes));

describe('hemispheres', () => {
  it('clears the north bit for a southern latitude and sets the west bit for a western longitude', () => {
    // Course/status word at content offset 16: BYTE_1 bit2 north, bit3 west, bit4 positioned, bit5 differential.
    const southEast = encodeGt06Gps(SOUTH_EAST, 1);
    expect(southEast.readUInt16BE(4 + 16)).toBe(0x1000 | 271);
    const southWest = encodeGt06Gps(SOUTH_WEST, 1);
    expect(southWest.readUInt16BE(4 + 16)).toBe(0x2000 | 0x0800 | 271);
    expect(encodeGt06Gps({ ...SOUTH_EAST, lat: 33.8688, lng: -151.2093 }, 1).readUInt16BE(4 + 16)).toBe(
      0x1000 | 0x0800 | 0x0400 | 271,
    );
  });

  it('decodes the document location with its hemisphere bits flipped to south and west', () => {
    const content = hex('0B 08 1D 11 2E 10 CF 02 7A C7 EB 0C 46 58 49 00 18 8F 01 CC 00 28 7D 00 1F B8');
    const message = decodeGt06({ protocol: 0x12, content, serial: 3, crcValid: true, extended: false });
    expect(message).toMatchObject({ fix: { lat: -0x027ac7eb / 1_800_000, lng: -0x0c465849 / 1_800_000 } });
  });

  it('round-trips every quadrant to the wire precision of 1/1,800,000 degree', () => {
    for (const [lat, lng] of [
      [-33.8688, 151.2093],
      [-33.4489, -70.6693],
      [40.7128, -74.006],
      [55.7558, 37.6173],
      [0, 0],
      [-90, -180],
      [90, 180],
    ]) {
      const message = roundTrip(encodeGt06Gps({ ...SOUTH_EAST, lat, lng }, 1));
      if (message.type !== 'gps') throw new Error(message.type);
      expect(Math.abs(message.fix.lat - lat)).toBeLessThanOrEqual(0.5 / 1_800_000);
      expect(Math.abs(message.fix.lng - lng)).toBeLessThanOrEqual(0.5 / 1_800_000);
      expect(Math.sign(message.fix.lat)).toBe(Math.sign(lat));
      expect(Math.sign(message.fix.lng)).toBe(Math.sign(lng));
    }
  });
});
