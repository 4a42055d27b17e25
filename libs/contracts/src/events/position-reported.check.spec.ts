import { decodeEvent, encodeEvent, EventSchemaError, validatePayload } from '../messaging/codec';
import { isInstantText } from '../instant';
import { Topics } from '../topics';
import { isStrictInstant } from './position-reported.check';
import { canonicalShapedTexts } from '../test/canonical-edges';

/** The class-validator path of the same topic: the decorators are the schema of record. */
const byDecorators = { ...Topics.positions, check: undefined };

const valid: Record<string, unknown> = {
  eventId: '6f1c2b7e-8a2b-4c3d-9e4f-0a1b2c3d4e5f',
  vehicleId: 7,
  imei: '860000000000001',
  fixTime: '2026-03-01T10:00:00.000Z',
  receivedAt: '2026-03-01T10:00:01.000Z',
  lat: 52.5,
  lng: 13.4,
  speedKmh: 50,
  course: 90,
  satellites: 9,
  signal: 4,
  batteryLevel: 80,
  driver: 'D-1',
  dtcCodes: ['P0300'],
};

/** Values to try per field: valid and invalid ones of every kind the wire could bring. */
const candidates: Record<string, unknown[]> = {
  eventId: ['not-a-uuid', 5, null, undefined],
  vehicleId: [0, 1.5, '7', -1, null, undefined, 2 ** 31],
  imei: [123, '', null, undefined, '86\u00000', 'tab\there', '\ud800x', '\ud83d\ude97'],
  fixTime: [
    '2026-03-01',
    '2026-02-30T10:00:00Z',
    'yesterday',
    0,
    null,
    undefined,
    // the canonical form of the fast path, and its edges
    '2024-02-29T10:00:00.000Z',
    '2026-02-29T10:00:00.000Z',
    '2026-03-01T24:00:00.000Z',
    '0999-03-01T10:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    // ISO 8601 notations Date cannot read (issue 16's fuzz test: a 500 at the batch endpoint)
    '20240101T000000Z',
    '2024-W01-1',
    '2024-100',
    '2024-01-01T00',
    '2024-01-01T00:00:00,5Z',
  ],
  receivedAt: ['2026-03-01T10:00:00+02:00', 'x', undefined, '2026-13-01T10:00:00.000Z'],
  // 1e-7 and below print in exponent form, which class-validator's pattern refuses
  lat: [90, 90.0001, -90, '52.5', 'north', null, undefined, 0, -0, 1e-6, 1e-7, -5e-8, 89.9999999],
  lng: [180, -180.5, '13.4', null, undefined, 1e-7, -179.9999999, NaN, Infinity],
  speedKmh: [0, -0.1, '50', null, undefined, Infinity, NaN],
  course: [0, 359, 360, 1.5, -1, null],
  altitudeM: [-400, 'high', null],
  satellites: [0, 2.5, -1, '9'],
  signal: [0, 5, 6, 3.2],
  ignition: [true, false, 'true', 1, null],
  batteryLevel: [0, 100, 100.5, -1],
  fuelLevel: [50, 101, 'full'],
  odometerM: [0, -5, 1e9],
  driver: [
    'x'.repeat(128),
    'x'.repeat(129),
    7,
    null,
    'a\u0000b',
    'line\nbreak',
    '\u007f',
    'Zoë 🚗',
    '\udc00',
  ],
  dtcCodes: [[], ['P0300', 'P0171'], [1], 'P0300', null, ['P0300', 'P\u00001']],
  doorLocked: [true, 'no'],
  vin: ['WVWZZZ1JZXW000001', 'x'.repeat(33), 7, 'a\u0000b'],
  deviceBatteryV: [4.1, 'low', null],
  deviceEvents: [[], ['harshBraking', 'powerCut'], ['explosion'], 'sos', [1]],
  unknownField: ['dropped', 5],
};

const accepts = (validate: () => unknown) => {
  try {
    validate();
    return true;
  } catch (error) {
    if (error instanceof EventSchemaError) return false;
    throw error;
  }
};

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('the fast check of position events', () => {
  it('accepts a valid event and drops unknown fields, as the decorators do', () => {
    const event = { ...valid, unknownField: 1 };
    expect(validatePayload(Topics.positions, event)).toEqual(valid);
    expect({ ...validatePayload(byDecorators, event) }).toEqual(valid);
  });

  it('agrees with the class-validator decorators on every single-field change', () => {
    for (const [field, values] of Object.entries(candidates)) {
      for (const value of values) {
        const event = { ...valid, [field]: value };
        if (value === undefined) delete event[field];
        const expected = accepts(() => validatePayload(byDecorators, event));
        expect({ field, value, accepted: accepts(() => validatePayload(Topics.positions, event)) }).toEqual({
          field,
          value,
          accepted: expected,
        });
      }
    }
  });

  it('agrees with them on 2,000 events with several fields changed at once', () => {
    const next = random(42);
    const fields = Object.keys(candidates);
    let rejected = 0;
    for (let run = 0; run < 2_000; run++) {
      const event = { ...valid };
      for (let change = 0; change < 1 + Math.floor(next() * 3); change++) {
        const field = fields[Math.floor(next() * fields.length)];
        const values = candidates[field];
        event[field] = values[Math.floor(next() * values.length)];
        if (event[field] === undefined) delete event[field];
      }
      const expected = accepts(() => validatePayload(byDecorators, event));
      if (!expected) rejected++;
      expect({ run, event, accepted: accepts(() => validatePayload(Topics.positions, event)) }).toEqual({
        run,
        event,
        accepted: expected,
      });
    }
    // Both kinds of case were exercised.
    expect(rejected).toBeGreaterThan(200);
    expect(rejected).toBeLessThan(1_900);
  });
});

describe('isStrictInstant', () => {
  it('agrees with the general check on every edge of the canonical form', () => {
    let accepted = 0;
    for (const text of canonicalShapedTexts([1000, 1900, 2000, 2023, 2024, 2100, 9999])) {
      const general = isInstantText(text);
      expect({ text, fast: isStrictInstant(text) }).toEqual({ text, fast: general });
      if (general) accepted++;
    }
    // Every real day of those years, at the two valid times: both paths were exercised.
    expect(accepted).toBe(2 * (5 * 365 + 2 * 366));
  });
});

describe('date-times Date cannot read', () => {
  it.each(['20240101T000000Z', '2024-W01-1', '2024-100', '2024-01-01T00', '2024-01-01T00:00:00,5Z'])(
    'refuses %s as a fix time, though isISO8601 accepts it',
    (fixTime) => {
      expect(() => validatePayload(Topics.positions, { ...valid, fixTime })).toThrow(EventSchemaError);
    },
  );
});

describe('text PostgreSQL cannot store', () => {
  const hostile = [
    { driver: 'a\u0000b' },
    { driver: 'tab\there' },
    { imei: '8600\u0000' },
    { dtcCodes: ['P0300', 'P\u00001'] },
    { driver: '\ud800' },
  ];

  it.each(hostile)('is refused when an event is published: %j', (change) => {
    expect(() => encodeEvent(Topics.positions, { ...valid, ...change } as never)).toThrow(EventSchemaError);
  });

  it.each(hostile)('is refused when an event is consumed: %j', (change) => {
    const wire = JSON.stringify({ ...valid, ...change });
    expect(() => decodeEvent(Topics.positions, wire)).toThrow(EventSchemaError);
  });

  it('leaves ordinary text of any script alone', () => {
    const event = { ...valid, driver: 'Zoë Ødegård – 東京 🚗' };
    expect(decodeEvent(Topics.positions, encodeEvent(Topics.positions, event as never))).toEqual(event);
  });
});
