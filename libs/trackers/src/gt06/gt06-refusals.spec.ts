import {
  encodeGt06Alarm,
  encodeGt06Command,
  encodeGt06CommandResponse,
  encodeGt06Gps,
  encodeGt06Login,
  encodeGt06Status,
} from './gt06-encode';
import type { Gt06Frame } from './gt06-framing';
import { decodeGt06, decodeGt06Command } from './gt06-messages';
import { hex, readWhole as read, reasonOf, SOUTH_EAST } from './test/gt06-test-helpers';

describe('decodeGt06 refusals', () => {
  const frame = (protocol: number, content: string, crcValid = true): Gt06Frame => ({
    protocol,
    content: hex(content),
    serial: 1,
    crcValid,
    extended: false,
  });

  it('refuses a frame whose error check failed, as the document says to discard it', () => {
    expect(reasonOf(() => decodeGt06(frame(0x01, '01 23 45 67 89 01 23 45', false)))).toBe('crc');
    expect(reasonOf(() => decodeGt06Command(frame(0x80, '08 00 00 00 00 73 6F 73 23', false)))).toBe('crc');
  });

  it('refuses a terminal ID that is not BCD', () => {
    expect(reasonOf(() => decodeGt06(frame(0x01, '01 23 45 67 89 01 23 4A')))).toBe('malformed');
  });

  it('refuses dates and coordinates that cannot be', () => {
    const gps = (date: string, lat = '02 7A C7 EB') =>
      frame(0x12, `${date} CF ${lat} 0C 46 58 49 00 14 8F 01 CC 00 28 7D 00 1F B8`);
    expect(reasonOf(() => decodeGt06(gps('0B 08 1D 11 2E 10')))).toBeUndefined();
    expect(reasonOf(() => decodeGt06(gps('00 00 00 00 00 00')))).toBe('malformed');
    expect(reasonOf(() => decodeGt06(gps('0B 02 1E 11 2E 10')))).toBe('malformed'); // 30 February
    expect(reasonOf(() => decodeGt06(gps('0B 08 1D 18 2E 10')))).toBe('malformed'); // hour 24
    expect(reasonOf(() => decodeGt06(gps('0B 08 1D 11 2E 10', '09 A7 EC 81')))).toBe('malformed'); // 90.0000006°
  });

  it('refuses a 0x21 content code other than ASCII or whole UTF-16BE, and decodes UTF-16BE', () => {
    expect(decodeGt06(frame(0x21, '00 00 00 07 02 00 4F 00 4B'))).toEqual({
      type: 'commandResponse',
      serverFlag: 7,
      text: 'OK',
    });
    expect(reasonOf(() => decodeGt06(frame(0x21, '00 00 00 07 02 00 4F 00')))).toBe('malformed');
    expect(reasonOf(() => decodeGt06(frame(0x21, '00 00 00 07 03 4F 4B')))).toBe('malformed');
  });

  it('refuses a command whose length of command is below the server flag or beyond the content', () => {
    expect(reasonOf(() => decodeGt06(frame(0x15, '03 00 00 00 00 4F 4B')))).toBe('malformed');
    expect(reasonOf(() => decodeGt06(frame(0x15, '07 00 00 00 00 4F 4B')))).toBe('truncated');
    expect(reasonOf(() => decodeGt06Command(frame(0x15, '06 00 00 00 00 4F 4B')))).toBe('malformed');
  });
});

describe('decodeGt06 on cut contents', () => {
  const cases: Array<[string, Buffer, number]> = [
    ['login', encodeGt06Login('123456789012345', 1), 8],
    ['GPS 0x12', encodeGt06Gps(SOUTH_EAST, 1), 26],
    ['GPS 0x22', encodeGt06Gps(SOUTH_EAST, 1, { acc: true }), 29],
    ['status', encodeGt06Status({ acc: true, voltageLevel: 4, gsmSignal: 3 }, 1), 5],
    ['alarm', encodeGt06Alarm(SOUTH_EAST, 'sos', 1), 32],
    ['command response', encodeGt06CommandResponse(7, 'OK', 1), 7],
  ];

  it.each(cases)('%s: every content shorter than the layout is truncated', (_name, bytes, minimum) => {
    const frame = read(bytes);
    expect(frame.content.length).toBeGreaterThanOrEqual(minimum);
    for (let cut = 0; cut < minimum; cut++) {
      const shortened = { ...frame, content: frame.content.subarray(0, cut) };
      expect(reasonOf(() => decodeGt06(shortened))).toBe('truncated');
    }
    expect(decodeGt06({ ...frame, content: frame.content.subarray(0, minimum) }).type).not.toBe('unknown');
  });

  it('GPS 0x22: a part of the optional mileage is truncated, none of it is not', () => {
    const frame = read(encodeGt06Gps(SOUTH_EAST, 1, { acc: true, mileageM: 5 }));
    expect(frame.content).toHaveLength(33);
    for (const cut of [30, 31, 32]) {
      expect(reasonOf(() => decodeGt06({ ...frame, content: frame.content.subarray(0, cut) }))).toBe(
        'truncated',
      );
    }
    expect(decodeGt06({ ...frame, content: frame.content.subarray(0, 29) })).not.toHaveProperty('mileageM');
  });

  it('command 0x80 on the device side', () => {
    const frame = read(encodeGt06Command(7, 'sos#', 1));
    for (let cut = 0; cut < frame.content.length; cut++) {
      expect(reasonOf(() => decodeGt06Command({ ...frame, content: frame.content.subarray(0, cut) }))).toBe(
        'truncated',
      );
    }
  });
});
