import fc from 'fast-check';
import { encodeGt06Alarm, encodeGt06Gps, encodeGt06Login, encodeGt06Status } from './gt06-encode';
import { Gt06Error } from './gt06-error';
import type { Gt06Alarm, Gt06Fix } from './gt06-fields';
import { encodeGt06Frame, readGt06Frame, type Gt06Frame } from './gt06-framing';
import { decodeGt06, decodeGt06Command } from './gt06-messages';

const UNIT = 1 / 1_800_000;

/** Runs `f`; passes if it returns or throws a Gt06Error, and rethrows anything else. */
function onlyGt06Errors(f: () => unknown): void {
  try {
    f();
  } catch (error) {
    if (!(error instanceof Gt06Error)) throw error;
  }
}

const start = fc.constantFrom([0x78, 0x78], [0x79, 0x79], [0x78], [0x79, 0x78], []);
const streamBytes = fc
  .tuple(start, fc.uint8Array({ maxLength: 300 }))
  .map(([head, tail]) => Buffer.concat([Buffer.from(head), Buffer.from(tail)]));

const protocols = fc.oneof(
  fc.constantFrom(0x01, 0x12, 0x13, 0x15, 0x16, 0x21, 0x22, 0x26, 0x80),
  fc.integer({ min: 0, max: 255 }),
);
const frames: fc.Arbitrary<Gt06Frame> = fc.record({
  protocol: protocols,
  content: fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes)),
  serial: fc.integer({ min: 0, max: 0xffff }),
  crcValid: fc.boolean(),
  extended: fc.boolean(),
});

const fixes: fc.Arbitrary<Gt06Fix> = fc.record({
  time: fc
    .integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2099, 11, 31, 23, 59, 59) / 1000 })
    .map((seconds) => new Date(seconds * 1000)),
  satellites: fc.integer({ min: 0, max: 15 }),
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
  speedKmh: fc.integer({ min: 0, max: 255 }),
  course: fc.integer({ min: 0, max: 360 }),
  fixed: fc.boolean(),
  realtime: fc.boolean(),
});

function decodeBytes(bytes: Buffer) {
  const read = readGt06Frame(bytes, 1024);
  if (!read) throw new Error('encoder produced an incomplete frame');
  expect(read.length).toBe(bytes.length);
  expect(read.frame.crcValid).toBe(true);
  return decodeGt06(read.frame);
}

/** Same fix, coordinates allowed to move by the wire's rounding (half a unit) and nothing else. */
function expectSameFix(actual: Gt06Fix, expected: Gt06Fix): void {
  const { lat, lng, ...rest } = actual;
  const { lat: wantLat, lng: wantLng, ...wantRest } = expected;
  expect(rest).toEqual(wantRest);
  expect(Math.abs(lat - wantLat)).toBeLessThanOrEqual(UNIT / 2 + 1e-12);
  expect(Math.abs(lng - wantLng)).toBeLessThanOrEqual(UNIT / 2 + 1e-12);
}

describe('GT06 properties', () => {
  it('readGt06Frame on arbitrary bytes returns or throws Gt06Error, never anything else', () => {
    fc.assert(
      fc.property(streamBytes, fc.integer({ min: 0, max: 0xffff }), (bytes, maxLength) => {
        onlyGt06Errors(() => {
          const result = readGt06Frame(bytes, maxLength);
          if (result) {
            expect(result.length).toBeLessThanOrEqual(bytes.length);
            expect(result.frame.content.length).toBeLessThanOrEqual(maxLength);
          }
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('decodeGt06 and decodeGt06Command on arbitrary frames return or throw Gt06Error', () => {
    fc.assert(
      fc.property(frames, (frame) => {
        onlyGt06Errors(() => decodeGt06(frame));
        onlyGt06Errors(() => decodeGt06Command(frame));
      }),
      { numRuns: 3000 },
    );
  });

  it('decodeGt06 on arbitrary content behind a valid header of each protocol returns or throws Gt06Error', () => {
    fc.assert(
      fc.property(protocols, fc.uint8Array({ maxLength: 60 }), (protocol, content) => {
        const bytes = encodeGt06Frame({ protocol, content, serial: 1 });
        const read = readGt06Frame(bytes, 1024);
        expect(read?.frame.crcValid).toBe(true);
        if (read) onlyGt06Errors(() => decodeGt06(read.frame));
      }),
      { numRuns: 3000 },
    );
  });

  it('a stream of frames split anywhere reads back frame by frame', () => {
    fc.assert(
      fc.property(
        fc.array(fixes, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 40 }),
        (list, chunk) => {
          const wire = Buffer.concat(list.map((fix, i) => encodeGt06Gps(fix, i)));
          const serials: number[] = [];
          let pending = Buffer.alloc(0);
          for (let at = 0; at < wire.length; at += chunk) {
            pending = Buffer.concat([pending, wire.subarray(at, at + chunk)]);
            for (let read = readGt06Frame(pending, 255); read; read = readGt06Frame(pending, 255)) {
              serials.push(read.frame.serial);
              pending = pending.subarray(read.length);
            }
          }
          expect(serials).toEqual(list.map((_, i) => i));
          expect(pending).toHaveLength(0);
        },
      ),
    );
  });

  it('encode → decode round-trips arbitrary fixes through 0x12, 0x22 and 0x16', () => {
    const alarms = fc.constantFrom<Gt06Alarm>(
      'sos',
      'powerCut',
      'vibration',
      'overspeed',
      'lowBattery',
      'geofenceEnter',
      'geofenceExit',
      'other',
    );
    fc.assert(
      fc.property(
        fixes,
        fc.integer({ min: 0, max: 0xffff }),
        fc.option(fc.integer({ min: 0, max: 0xffffffff }), { nil: undefined }),
        fc.boolean(),
        alarms,
        (fix, serial, mileageM, acc, alarm) => {
          const plain = decodeBytes(encodeGt06Gps(fix, serial));
          if (plain.type !== 'gps') throw new Error(plain.type);
          expectSameFix(plain.fix, fix);

          const utc = decodeBytes(encodeGt06Gps(fix, serial, { acc, mileageM }));
          if (utc.type !== 'gps') throw new Error(utc.type);
          expectSameFix(utc.fix, fix);
          expect(utc.acc).toBe(acc);
          expect(utc.mileageM).toBe(mileageM);

          const alarmed = decodeBytes(encodeGt06Alarm(fix, alarm, serial, { acc }));
          if (alarmed.type !== 'alarm') throw new Error(alarmed.type);
          expectSameFix(alarmed.fix, fix);
          expect(alarmed.alarm).toBe(alarm);
          expect(alarmed.acc).toBe(acc);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('login and status round-trip arbitrary values', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{15}$/),
        fc.record({
          acc: fc.boolean(),
          charging: fc.boolean(),
          powerCut: fc.boolean(),
          voltageLevel: fc.integer({ min: 0, max: 6 }),
          gsmSignal: fc.integer({ min: 0, max: 4 }),
        }),
        (imei, status) => {
          expect(decodeBytes(encodeGt06Login(imei, 1))).toEqual({ type: 'login', imei });
          expect(decodeBytes(encodeGt06Status(status, 1))).toEqual({
            type: 'status',
            ...status,
            ...(status.powerCut ? { alarm: 'powerCut' } : {}),
          });
        },
      ),
    );
  });
});
