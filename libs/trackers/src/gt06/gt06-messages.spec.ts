import type { Gt06Frame } from './gt06-framing';
import { decodeGt06, decodeGt06Command, gt06NeedsAnswer, type Gt06Message } from './gt06-messages';
import { hex, readWhole } from './test/gt06-test-helpers';

/**
 * The worked examples of the two Concox documents, decoded to the values the documents state.
 * "GT06" is the GT06 GPS Tracker Communication Protocol; "VL02" the later Concox document for the
 * JM-VL02/EG02/GT800 family, source of 0x22, 0x26 and 0x21.
 */
const frameOf = (s: string): Gt06Frame => readWhole(hex(s));
const decode = (s: string): Gt06Message => decodeGt06(frameOf(s));
const gpsWithLatitude = (lat: string): Gt06Frame => ({
  protocol: 0x12,
  content: hex(`0B 08 1D 11 2E 10 CF ${lat} 0C 46 58 49 00 14 8F 01 CC 00 28 7D 00 1F B8`),
  serial: 3,
  crcValid: true,
  extended: false,
});

describe('decodeGt06 on the documents’ examples', () => {
  it('login, GT06 §5.1.3: terminal ID 0123456789012345 is IMEI 123456789012345', () => {
    const frame = frameOf('78 78 0D 01 01 23 45 67 89 01 23 45 00 01 8C DD 0D 0A');
    expect(decodeGt06(frame)).toEqual({ type: 'login', imei: '123456789012345' });
    expect(frame.serial).toBe(1);
    expect(gt06NeedsAnswer(0x01)).toBe(true);
  });

  it('login, GT06 Appendix B capture and VL02 §1.1 (which appends model and time zone)', () => {
    expect(decode('78 78 0D 01 03 53 41 35 32 15 03 62 00 02 2D 06 0D 0A')).toEqual({
      type: 'login',
      imei: '353413532150362',
    });
    expect(decode('78 78 11 01 07 52 53 36 78 90 02 42 70 00 32 01 00 05 12 79 0D 0A')).toEqual({
      type: 'login',
      imei: '752533678900242',
    });
  });

  it('location 0x12, GT06 §5.2.1 and Appendix B: 2011-08-29 17:46:16, N23.1117 E114.4093, course 143', () => {
    // §5.2.2 prints the satellite byte as CC; the table above it and Appendix B print CF, and only CF
    // matches the example's error check 80 81.
    const frame = frameOf(
      '78 78 1F 12 0B 08 1D 11 2E 10 CF 02 7A C7 EB 0C 46 58 49 00 14 8F 01 CC 00 28 7D 00 1F B8 00 03 80 81 0D 0A',
    );
    expect(frame.serial).toBe(3);
    expect(decodeGt06(frame)).toEqual({
      type: 'gps',
      fix: {
        time: new Date('2011-08-29T17:46:16Z'),
        satellites: 15,
        lat: 0x027ac7eb / 1_800_000,
        lng: 0x0c465849 / 1_800_000,
        speedKmh: 0,
        course: 143,
        fixed: true,
        realtime: true,
      },
      lbs: { mcc: 460, mnc: 0, lac: 0x287d, cellId: 0x1fb8 },
    });
    // The document's formula, minutes × 30000, on its own example: 22°32.7658' is 0x026B3F3E.
    const documented = decodeGt06(gpsWithLatitude('02 6B 3F 3E'));
    expect(documented.type === 'gps' && documented.fix.lat).toBeCloseTo((22 * 60 + 32.7658) / 60, 10);
    expect(gt06NeedsAnswer(0x12)).toBe(false);
  });

  it('location 0x22, VL02 §3.1: ACC low, re-uploaded, no mileage', () => {
    const frame = frameOf(
      '78 78 22 22 0F 0C 1D 02 33 05 C9 02 7A C8 18 0C 46 58 60 00 14 00 01 CC 00 28 7D 00 1F 71 00 00 01 00 08 20 86 0D 0A',
    );
    expect(decodeGt06(frame)).toEqual({
      type: 'gps',
      fix: {
        time: new Date('2015-12-29T02:51:05Z'),
        satellites: 9,
        lat: 0x027ac818 / 1_800_000,
        lng: 0x0c465860 / 1_800_000,
        speedKmh: 0,
        course: 0,
        fixed: true,
        realtime: true,
      },
      lbs: { mcc: 460, mnc: 0, lac: 10365, cellId: 8049 },
      acc: false,
      reupload: true,
    });
    expect(gt06NeedsAnswer(0x22)).toBe(false);
  });

  it('status 0x13, GT06 Appendix B: 0x44 = GPS on, charging, ACC low; voltage 1; signal 4', () => {
    const frame = frameOf('78 78 0A 13 44 01 04 00 01 00 05 08 45 0D 0A');
    expect(frame.serial).toBe(5);
    expect(decodeGt06(frame)).toEqual({
      type: 'status',
      acc: false,
      charging: true,
      powerCut: false,
      voltageLevel: 1,
      gsmSignal: 4,
    });
    expect(gt06NeedsAnswer(0x13)).toBe(true);
  });

  it('heartbeat 0x13, VL02 §2.1: terminal 0x40, voltage 4, signal 4', () => {
    expect(decode('78 78 0A 13 40 04 04 00 01 00 0F DC EE 0D 0A')).toEqual({
      type: 'status',
      acc: false,
      charging: false,
      powerCut: false,
      voltageLevel: 4,
      gsmSignal: 4,
    });
  });

  it('alarm 0x16, GT06 §5.3.1.21: SOS in both the terminal byte (0x65) and the alarm byte', () => {
    const frame = frameOf(
      '78 78 25 16 0B 0B 0F 0E 24 1D CF 02 7A C8 87 0C 46 57 E6 00 14 02 09 01 CC 00 28 7D 00 1F 72 65 06 04 01 01 00 36 56 A4 0D 0A',
    );
    expect(frame.serial).toBe(0x36);
    expect(decodeGt06(frame)).toEqual({
      type: 'alarm',
      fix: {
        time: new Date('2011-11-15T14:36:29Z'),
        satellites: 15,
        lat: 0x027ac887 / 1_800_000,
        lng: 0x0c4657e6 / 1_800_000,
        speedKmh: 0,
        course: 2,
        fixed: true,
        realtime: true,
      },
      acc: false,
      voltageLevel: 6,
      gsmSignal: 4,
      alarm: 'sos',
    });
    expect(gt06NeedsAnswer(0x16)).toBe(true);
  });

  it('alarm 0x26, VL02 §6.1: vibration by code 0x03; not positioned', () => {
    const message = decode(
      '78 78 25 26 12 03 0C 06 38 16 C3 02 6C 10 54 0C 38 C9 70 01 44 03 09 01 CC 00 28 66 00 0E EE 0C 06 04 03 02 00 0D A2 DB 0D 0A',
    );
    expect(message).toEqual({
      type: 'alarm',
      fix: {
        time: new Date('2018-03-12T06:56:22Z'),
        satellites: 3,
        lat: 0x026c1054 / 1_800_000,
        lng: 0x0c38c970 / 1_800_000,
        speedKmh: 1,
        course: 3,
        fixed: false,
        realtime: true,
      },
      acc: false,
      voltageLevel: 6,
      gsmSignal: 4,
      alarm: 'vibration',
    });
    expect(gt06NeedsAnswer(0x26)).toBe(true);
  });

  it('alarm 0x26, VL02 §6.1 second example: low battery only in the terminal byte (0xD8)', () => {
    const message = decode(
      '78 78 25 26 11 0C 0D 13 37 36 CB 02 6C 15 A6 0C 38 CF 0A 00 54 B9 08 01 CC 00 28 66 00 0E EE D8 02 04 00 02 00 1D 76 F9 0D 0A',
    );
    expect(message).toMatchObject({ type: 'alarm', alarm: 'lowBattery', voltageLevel: 2, acc: false });
    expect(message.type === 'alarm' && message.fix).toMatchObject({
      time: new Date('2017-12-13T19:55:54Z'),
      satellites: 11,
      course: 185,
      fixed: true,
    });
  });

  it('command response 0x15, GT06 Appendix B: DYD=Success! for server flag 0001A958', () => {
    const frame = frameOf(
      '78 78 18 15 10 00 01 A9 58 44 59 44 3D 53 75 63 63 65 73 73 21 00 02 00 18 91 77 0D 0A',
    );
    expect(decodeGt06(frame)).toEqual({
      type: 'commandResponse',
      serverFlag: 0x0001a958,
      text: 'DYD=Success!',
    });
    expect(gt06NeedsAnswer(0x15)).toBe(false);
  });

  it('command response 0x15, VL02 §8.2.2 (JM01)', () => {
    expect(
      decode(
        '78 78 28 15 20 00 00 00 00 53 4F 53 31 3A 31 33 34 32 31 36 33 32 36 39 39 20 53 4F 53 32 3A 20 53 4F 53 33 3A 00 01 00 2A C3 9C 0D 0A',
      ),
    ).toEqual({ type: 'commandResponse', serverFlag: 0, text: 'SOS1:13421632699 SOS2: SOS3:' });
  });

  it('command response 0x21 in a 0x7979 frame, VL02 §8.2.1: ASCII content code', () => {
    const frame = frameOf(
      '79 79 00 9D 21 00 00 00 00 01 42 61 74 74 65 72 79 3A 34 2E 31 36 56 2C 4E 4F 52 4D 41 4C 3B 20 47 50 52 53 3A 4C 69 6E 6B 20 55 70 3B 20 47 53 4D 20 53 69 67 6E 61 6C 20 4C 65 76 65 6C 3A 53 74 72 6F 6E 67 3B 20 47 50 53 3A 53 65 61 72 63 68 69 6E 67 20 73 61 74 65 6C 6C 69 74 65 2C 20 53 56 53 20 55 73 65 64 20 69 6E 20 66 69 78 3A 30 28 30 29 2C 20 47 50 53 20 53 69 67 6E 61 6C 20 4C 65 76 65 6C 3A 3B 20 41 43 43 3A 4F 46 46 3B 20 44 65 66 65 6E 73 65 3A 4F 46 46 00 2E 26 DF 0D 0A',
    );
    expect(frame.extended).toBe(true);
    expect(frame.serial).toBe(0x2e);
    expect(decodeGt06(frame)).toEqual({
      type: 'commandResponse',
      serverFlag: 0,
      text: 'Battery:4.16V,NORMAL; GPRS:Link Up; GSM Signal Level:Strong; GPS:Searching satellite, SVS Used in fix:0(0), GPS Signal Level:; ACC:OFF; Defense:OFF',
    });
  });

  it('command 0x80 on the device side, GT06 Appendix B and VL02 §8.1 with and without language', () => {
    expect(
      decodeGt06Command(
        frameOf('78 78 15 80 0F 00 01 A9 58 44 59 44 2C 30 30 30 30 30 30 23 00 A0 DC F1 0D 0A'),
      ),
    ).toEqual({ serverFlag: 0x0001a958, text: 'DYD,000000#' });
    expect(decodeGt06Command(frameOf('78 78 0E 80 08 00 00 00 00 73 6F 73 23 00 01 6D 6A 0D 0A'))).toEqual({
      serverFlag: 0,
      text: 'sos#',
    });
    expect(
      decodeGt06Command(frameOf('78 78 10 80 08 00 00 00 00 73 6F 73 23 00 02 00 01 9A 17 0D 0A')),
    ).toEqual({
      serverFlag: 0,
      text: 'sos#',
    });
  });

  it('an undecoded protocol is unknown: time request 0x8A, LBS alarm 0x19 (VL02 §9.1, §7.1)', () => {
    expect(decode('78 78 05 8A 00 06 88 29 0D 0A')).toEqual({ type: 'unknown', protocol: 0x8a });
    expect(decode('78 78 12 19 01 CC 00 28 7D 00 1F 71 20 04 04 01 01 00 94 6C 89 0D 0A')).toEqual({
      type: 'unknown',
      protocol: 0x19,
    });
    expect(gt06NeedsAnswer(0x8a)).toBe(false);
  });
});

describe('gt06NeedsAnswer', () => {
  it('answers login, heartbeats and alarms only', () => {
    const answered = [...Array(256).keys()].filter(gt06NeedsAnswer);
    expect(answered).toEqual([0x01, 0x13, 0x16, 0x23, 0x26]);
  });
});
