// The report's fields beyond the fix: command acknowledgements, the device secret, and hostile JSON bodies.
import fc from 'fast-check';
import { OsmAndParseError, parseOsmAndFields, parseOsmAndJson } from './osmand-report';
import { fields, IMEI, parseErrorOf } from './test/osmand-report-helpers';

describe('command acknowledgements (cmdid and cmdstatus)', () => {
  const ID = '0b7e4a52-3c1d-4f5e-9a6b-7c8d9e0f1a2b';
  const location = (extras: Record<string, unknown>) => ({
    device_id: IMEI,
    location: { coords: { latitude: 52.5, longitude: 13.4 }, extras },
  });

  it('reads both fields, in any letter case, the id lower-cased', () => {
    expect(parseOsmAndFields(fields({ cmdid: ID, cmdstatus: 'ok' })).acknowledgement).toEqual({
      commandId: ID,
      status: 'ok',
    });
    expect(
      parseOsmAndFields(fields({ CmdId: ID.toUpperCase(), CMDSTATUS: 'Failed' })).acknowledgement,
    ).toEqual({ commandId: ID, status: 'failed' });
  });

  it('reads them from the extras of the JSON variant', () => {
    expect(parseOsmAndJson(location({ cmdid: ID, cmdstatus: 'failed' })).acknowledgement).toEqual({
      commandId: ID,
      status: 'failed',
    });
  });

  it('has no acknowledgement at all without the fields, or with both empty', () => {
    expect('acknowledgement' in parseOsmAndFields(fields())).toBe(false);
    expect('acknowledgement' in parseOsmAndFields(fields({ cmdid: '', cmdstatus: ' ' }))).toBe(false);
    expect('acknowledgement' in parseOsmAndJson(location({ cmdid: null }))).toBe(false);
  });

  it.each([
    ['cmdid', { cmdid: 'open-sesame', cmdstatus: 'ok' }, 'cmdid: "open-sesame" is not a command id (a UUID)'],
    ['cmdid', { cmdid: `${ID}0`, cmdstatus: 'ok' }, `cmdid: "${ID}0" is not a command id (a UUID)`],
    ['cmdid', { cmdid: `{${ID}}`, cmdstatus: 'ok' }, `cmdid: "{${ID}}" is not a command id (a UUID)`],
    ['cmdstatus', { cmdid: ID, cmdstatus: 'done' }, 'cmdstatus: "done" is not ok or failed'],
    ['cmdstatus', { cmdid: ID, cmdstatus: '1' }, 'cmdstatus: "1" is not ok or failed'],
    ['cmdstatus', { cmdid: ID }, 'cmdstatus: is required with cmdid'],
    ['cmdid', { cmdstatus: 'ok' }, 'cmdid: is required with cmdstatus'],
    ['cmdid', { cmdid: '', cmdstatus: 'failed' }, 'cmdid: is required with cmdstatus'],
  ])('names %s when it is wrong (%#)', (field, override, message) => {
    const error = parseErrorOf(() => parseOsmAndFields(fields(override)));
    expect([error.field, error.message]).toEqual([field, message]);
  });

  it.each([
    [
      'location.extras.cmdid',
      { cmdid: 42, cmdstatus: 'ok' },
      'location.extras.cmdid: 42 is not a command id (a UUID)',
    ],
    [
      'location.extras.cmdstatus',
      { cmdid: ID, cmdstatus: true },
      'location.extras.cmdstatus: true is not ok or failed',
    ],
    ['location.extras.cmdstatus', { cmdid: ID }, 'location.extras.cmdstatus: is required with cmdid'],
    ['location.extras.cmdid', { cmdstatus: 'ok' }, 'location.extras.cmdid: is required with cmdstatus'],
  ])('names %s of the JSON variant when it is wrong (%#)', (field, extras, message) => {
    const error = parseErrorOf(() => parseOsmAndJson(location(extras)));
    expect([error.field, error.message]).toEqual([field, message]);
  });
});

describe('the device secret (docs/device-settings.md)', () => {
  const json = (extra: Record<string, unknown> = {}) => ({
    device_id: IMEI,
    location: { coords: { latitude: 52.5, longitude: 13.4 } },
    ...extra,
  });

  it('is read from the query or form field `secret`, in any letter case, trimmed', () => {
    expect(parseOsmAndFields(fields({ secret: 'abc' })).secret).toBe('abc');
    expect(parseOsmAndFields(fields({ SECRET: ' abc ' })).secret).toBe('abc');
    expect(parseOsmAndFields(fields({ secret: ['old', 'new'] })).secret).toBe('new');
  });

  it('is absent, not empty, when the report carries none', () => {
    expect(Object.keys(parseOsmAndFields(fields()))).not.toContain('secret');
    expect(Object.keys(parseOsmAndFields(fields({ secret: '' })))).not.toContain('secret');
    expect(Object.keys(parseOsmAndJson(json()))).not.toContain('secret');
  });

  it('is the JSON body’s `secret`, else the query’s', () => {
    expect(parseOsmAndJson(json({ secret: 'in-body' }), { secret: 'in-query' }).secret).toBe('in-body');
    expect(parseOsmAndJson(json(), { Secret: 'in-query' }).secret).toBe('in-query');
    expect(parseOsmAndJson(json({ secret: 12345 })).secret).toBe('12345');
  });

  it('refuses a JSON secret that is not a scalar, naming the field', () => {
    const error = parseErrorOf(() => parseOsmAndJson(json({ secret: { value: 'x' } })));
    expect([error.field, error.message]).toEqual([
      'secret',
      'secret: {"value":"x"} is not a string, number or boolean',
    ]);
  });
});

describe('hostile JSON bodies', () => {
  /** `depth` arrays (or objects under key `a`) around `inner`, as JSON.parse would build them. */
  const nested = (depth: number, inner: unknown, kind: 'array' | 'object' = 'array'): unknown => {
    let value = inner;
    for (let level = 0; level < depth; level += 1) value = kind === 'array' ? [value] : { a: value };
    return value;
  };
  const DEEP = 30_000;

  it.each([
    ['a top-level array', () => nested(DEEP, 1), 'body'],
    ['the device id', () => ({ device_id: nested(DEEP, 1) }), 'device_id'],
    ['the location', () => ({ device_id: IMEI, location: nested(DEEP, {}) }), 'location'],
    [
      'a reading in extras',
      () => ({
        device_id: IMEI,
        location: { coords: { latitude: 1, longitude: 2 }, extras: { fuel: nested(DEEP, 1, 'object') } },
      }),
      'location.extras.fuel',
    ],
    [
      'the secret',
      () => ({
        device_id: IMEI,
        location: { coords: { latitude: 1, longitude: 2 } },
        secret: nested(DEEP, 'x'),
      }),
      'secret',
    ],
  ])('answers nesting thousands deep in %s with its own error, its echo cut short', (_what, make, field) => {
    const error = parseErrorOf(() => parseOsmAndJson(make()));
    expect(error.field).toBe(field);
    expect(error.message.length).toBeLessThan(200);
  });

  it('echoes small arrays and objects in full', () => {
    const error = parseErrorOf(() => parseOsmAndJson({ device_id: [1, [2, { a: 3 }]] }));
    expect(error.message).toBe('device_id: [1,[2,{"a":3}]] is not a string, number or boolean');
  });

  it('never throws anything but its own error, whatever JSON it is given', () => {
    const deep = fc
      .tuple(
        fc.integer({ min: 1, max: 20_000 }),
        fc.constantFrom<'array' | 'object'>('array', 'object'),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .map(([depth, kind, inner]) => nested(depth, inner, kind));
    const places = fc.constantFrom(
      (value: unknown) => value,
      (value: unknown) => ({ device_id: value }),
      (value: unknown) => ({ device_id: IMEI, location: value }),
      (value: unknown) => ({ device_id: IMEI, location: { coords: value } }),
      (value: unknown) => ({ device_id: IMEI, location: { coords: { latitude: value, longitude: 1 } } }),
      (value: unknown) => ({
        device_id: IMEI,
        location: { coords: { latitude: 1, longitude: 1 }, extras: value },
      }),
      (value: unknown) => ({
        device_id: IMEI,
        location: { coords: { latitude: 1, longitude: 1 }, battery: value },
      }),
      (value: unknown) => ({
        device_id: IMEI,
        location: { coords: { latitude: 1, longitude: 1 }, extras: { speed: value } },
      }),
      (value: unknown) => ({
        device_id: IMEI,
        location: { coords: { latitude: 1, longitude: 1 } },
        secret: value,
      }),
    );
    fc.assert(
      fc.property(places, fc.oneof(deep, fc.jsonValue()), (place, value) => {
        try {
          parseOsmAndJson(place(value));
        } catch (error) {
          if (!(error instanceof OsmAndParseError)) throw error;
        }
      }),
      { numRuns: 300 },
    );
  });
});
