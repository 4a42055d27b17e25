import {
  encodeGt06Alarm,
  encodeGt06Answer,
  encodeGt06Command,
  encodeGt06CommandResponse,
  encodeGt06Gps,
  encodeGt06Login,
  encodeGt06Status,
} from './gt06-encode';
import type { Gt06Alarm, Gt06Fix } from './gt06-fields';
import { decodeGt06, decodeGt06Command } from './gt06-messages';
import { hex, readWhole as read, reasonOf, SOUTH_EAST, SOUTH_WEST } from './test/gt06-test-helpers';

const roundTrip = (bytes: Buffer) => decodeGt06(read(bytes));

describe('server-side encoders against the documents', () => {
  it('answers with the echoed protocol and serial (GT06 §5.1.3, Appendix B, §5.3.2.7; VL02 §2.2, §6.2)', () => {
    expect(encodeGt06Answer(0x01, 1)).toEqual(hex('78 78 05 01 00 01 D9 DC 0D 0A'));
    expect(encodeGt06Answer(0x01, 2)).toEqual(hex('78 78 05 01 00 02 EB 47 0D 0A'));
    expect(encodeGt06Answer(0x13, 5)).toEqual(hex('78 78 05 13 00 05 AF D5 0D 0A'));
    expect(encodeGt06Answer(0x13, 0x11)).toEqual(hex('78 78 05 13 00 11 F9 70 0D 0A'));
    expect(encodeGt06Answer(0x16, 0x36)).toEqual(hex('78 78 05 16 00 36 95 70 0D 0A'));
    expect(encodeGt06Answer(0x26, 0x1c)).toEqual(hex('78 78 05 26 00 1C 9D 86 0D 0A'));
    expect(encodeGt06Answer(0x23, 0x08)).toEqual(hex('78 78 05 23 00 08 F2 9E 0D 0A'));
  });

  it('writes a 0x80 command as the captured traffic does, without language bytes (GT06 App. B, VL02 §8.1)', () => {
    expect(encodeGt06Command(0x0001a958, 'DYD,000000#', 0xa0)).toEqual(
      hex('78 78 15 80 0F 00 01 A9 58 44 59 44 2C 30 30 30 30 30 30 23 00 A0 DC F1 0D 0A'),
    );
    expect(encodeGt06Command(0x0001a963, 'HFYD,000000#', 0xa0)).toEqual(
      hex('78 78 16 80 10 00 01 A9 63 48 46 59 44 2C 30 30 30 30 30 30 23 00 A0 7B DC 0D 0A'),
    );
    expect(encodeGt06Command(0, 'sos#', 1)).toEqual(
      hex('78 78 0E 80 08 00 00 00 00 73 6F 73 23 00 01 6D 6A 0D 0A'),
    );
  });

  it('refuses command text the frame cannot carry', () => {
    expect(encodeGt06Command(1, 'A'.repeat(245), 1)).toHaveLength(255 + 5);
    expect(reasonOf(() => encodeGt06Command(1, 'A'.repeat(246), 1))).toBe('oversized');
    expect(reasonOf(() => encodeGt06Command(1, 'Stadt=Köln', 1))).toBe('malformed');
    expect(() => encodeGt06Command(-1, 'sos#', 1)).toThrow(RangeError);
    expect(() => encodeGt06Command(0x1_0000_0000, 'sos#', 1)).toThrow(RangeError);
  });
});

describe('device-side encoders against the documents', () => {
  it('writes the document login, GT06 §5.1.3 and Appendix B', () => {
    expect(encodeGt06Login('123456789012345', 1)).toEqual(
      hex('78 78 0D 01 01 23 45 67 89 01 23 45 00 01 8C DD 0D 0A'),
    );
    expect(encodeGt06Login('353413532150362', 2)).toEqual(
      hex('78 78 0D 01 03 53 41 35 32 15 03 62 00 02 2D 06 0D 0A'),
    );
    expect(() => encodeGt06Login('12345678901234', 1)).toThrow(RangeError);
    expect(() => encodeGt06Login('12345678901234a', 1)).toThrow(RangeError);
  });

  it('writes the document location 0x12, GT06 §5.2.1', () => {
    const fix: Gt06Fix = {
      time: new Date('2011-08-29T17:46:16Z'),
      satellites: 15,
      lat: 0x027ac7eb / 1_800_000,
      lng: 0x0c465849 / 1_800_000,
      speedKmh: 0,
      course: 143,
      fixed: true,
      realtime: true,
    };
    expect(encodeGt06Gps(fix, 3, undefined, { mcc: 460, mnc: 0, lac: 0x287d, cellId: 0x1fb8 })).toEqual(
      hex(
        '78 78 1F 12 0B 08 1D 11 2E 10 CF 02 7A C7 EB 0C 46 58 49 00 14 8F 01 CC 00 28 7D 00 1F B8 00 03 80 81 0D 0A',
      ),
    );
  });

  it('writes the document status, GT06 Appendix B, except for the language byte (English, not Chinese)', () => {
    expect(encodeGt06Status({ acc: false, charging: true, voltageLevel: 1, gsmSignal: 4 }, 5)).toEqual(
      encodeFrameLike('78 78 0A 13 44 01 04 00 02 00 05'),
    );
  });

  it('writes the document command response 0x15, GT06 Appendix B', () => {
    expect(encodeGt06CommandResponse(0x0001a958, 'DYD=Success!', 0x18)).toEqual(
      hex('78 78 18 15 10 00 01 A9 58 44 59 44 3D 53 75 63 63 65 73 73 21 00 02 00 18 91 77 0D 0A'),
    );
    expect(reasonOf(() => encodeGt06CommandResponse(1, 'A'.repeat(244), 1))).toBe('oversized');
  });

  it('writes an SOS alarm in both the terminal byte and the alarm byte, as the GT06 §5.3.1.21 example', () => {
    const bytes = encodeGt06Alarm(SOUTH_EAST, 'sos', 0x36, { acc: false, voltageLevel: 6, gsmSignal: 4 });
    // Terminal information 0x60 = GPS tracking on | SOS (100 in bits 3-5); then 06 04, alarm 01, English.
    expect(bytes.subarray(3 + 1 + 18 + 9, 3 + 1 + 18 + 9 + 5)).toEqual(hex('60 06 04 01 02'));
    expect(bytes[3 + 1 + 18]).toBe(0x09);
  });
});

/** A frame from its header-through-serial hex, with the error check the document's Appendix A gives. */
function encodeFrameLike(head: string): Buffer {
  const body = hex(head);
  let crc = 0xffff;
  for (const byte of body.subarray(2)) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(~crc & 0xffff, 0);
  tail.writeUInt16BE(0x0d0a, 2);
  return Buffer.concat([body, tail]);
}

describe('round trips of every encoder', () => {
  it('login', () => {
    expect(roundTrip(encodeGt06Login('868120145233604', 9))).toEqual({
      type: 'login',
      imei: '868120145233604',
    });
    expect(roundTrip(encodeGt06Login('1868120145233604', 9))).toEqual({
      type: 'login',
      imei: '1868120145233604',
    });
  });

  it('location 0x12 with its cell', () => {
    const lbs = { mcc: 262, mnc: 1, lac: 0xfffe, cellId: 0xabcdef };
    expect(roundTrip(encodeGt06Gps(SOUTH_EAST, 2, undefined, lbs))).toEqual({
      type: 'gps',
      fix: SOUTH_EAST,
      lbs,
    });
    expect(read(encodeGt06Gps(SOUTH_EAST, 2)).protocol).toBe(0x12);
  });

  it('location 0x22 with ACC and mileage', () => {
    const bytes = encodeGt06Gps(SOUTH_WEST, 0xffff, { acc: true, mileageM: 123_456_789 });
    expect(read(bytes)).toMatchObject({ protocol: 0x22, serial: 0xffff });
    expect(decodeGt06(read(bytes))).toEqual({
      type: 'gps',
      fix: SOUTH_WEST,
      lbs: { mcc: 0, mnc: 0, lac: 0, cellId: 0 },
      acc: true,
      reupload: false,
      mileageM: 123_456_789,
    });
    expect(roundTrip(encodeGt06Gps(SOUTH_WEST, 1, {}))).toMatchObject({ acc: false, reupload: false });
    expect(roundTrip(encodeGt06Gps(SOUTH_WEST, 1, {}))).not.toHaveProperty('mileageM');
  });

  it('status, with and without a power cut', () => {
    expect(
      roundTrip(
        encodeGt06Status({ acc: true, charging: false, powerCut: true, voltageLevel: 3, gsmSignal: 2 }, 7),
      ),
    ).toEqual({
      type: 'status',
      acc: true,
      charging: false,
      powerCut: true,
      voltageLevel: 3,
      gsmSignal: 2,
      alarm: 'powerCut',
    });
    expect(roundTrip(encodeGt06Status({ acc: false, voltageLevel: 6, gsmSignal: 4 }, 7))).toEqual({
      type: 'status',
      acc: false,
      charging: false,
      powerCut: false,
      voltageLevel: 6,
      gsmSignal: 4,
    });
  });

  it('alarm, for every alarm kind', () => {
    const kinds = [
      'sos',
      'powerCut',
      'vibration',
      'overspeed',
      'lowBattery',
      'geofenceEnter',
      'geofenceExit',
      'other',
    ];
    for (const alarm of kinds as Gt06Alarm[]) {
      const bytes = encodeGt06Alarm(SOUTH_EAST, alarm, 4, { acc: true, voltageLevel: 2, gsmSignal: 1 });
      expect(roundTrip(bytes)).toEqual({
        type: 'alarm',
        fix: SOUTH_EAST,
        acc: true,
        voltageLevel: 2,
        gsmSignal: 1,
        alarm,
      });
    }
    expect(roundTrip(encodeGt06Alarm(SOUTH_EAST, 'sos', 4))).toMatchObject({
      acc: false,
      voltageLevel: 6,
      gsmSignal: 4,
    });
  });

  it('command and command response', () => {
    expect(decodeGt06Command(read(encodeGt06Command(0xdeadbeef, 'RELAY,1#', 0x1234)))).toEqual({
      serverFlag: 0xdeadbeef,
      text: 'RELAY,1#',
    });
    expect(roundTrip(encodeGt06CommandResponse(0xdeadbeef, 'RELAY=Success!', 0x1235))).toEqual({
      type: 'commandResponse',
      serverFlag: 0xdeadbeef,
      text: 'RELAY=Success!',
    });
    expect(decodeGt06Command(read(encodeGt06Command(1, '', 1)))).toEqual({ serverFlag: 1, text: '' });
  });

  it('rejects fixes outside what the wire can carry', () => {
    expect(() => encodeGt06Gps({ ...SOUTH_EAST, time: new Date('1999-12-31T23:59:59Z') }, 1)).toThrow(
      RangeError,
    );
    expect(() => encodeGt06Gps({ ...SOUTH_EAST, time: new Date('2100-01-01T00:00:00Z') }, 1)).toThrow(
      RangeError,
    );
    expect(() => encodeGt06Gps({ ...SOUTH_EAST, lat: 90.01 }, 1)).toThrow(RangeError);
    expect(() => encodeGt06Gps({ ...SOUTH_EAST, lng: Number.NaN }, 1)).toThrow(RangeError);
    expect(() => encodeGt06Gps({ ...SOUTH_EAST, speedKmh: 256 }, 1)).toThrow(RangeError);
    expect(() => encodeGt06Gps({ ...SOUTH_EAST, satellites: 16 }, 1)).toThrow(RangeError);
    expect(() => encodeGt06Gps({ ...SOUTH_EAST, course: 1024 }, 1)).toThrow(RangeError);
    expect(() => encodeGt06Gps(SOUTH_EAST, 1, { mileageM: -1 })).toThrow(RangeError);
  });
});
