import { AlertEngineException } from '../alert-engine.exception';
import { changedInput, ConfigurationInput, definitionOf } from './configuration-rules';

/** The description of the 422 a definition gives, or undefined when it is accepted. */
function refusal(input: Partial<ConfigurationInput> & Record<string, unknown>): string | undefined {
  try {
    definitionOf(input as ConfigurationInput);
    return undefined;
  } catch (error) {
    if (!(error instanceof AlertEngineException)) throw error;
    expect(error.status).toBe(422);
    return error.description;
  }
}

describe('alert configuration rules', () => {
  it('trims the name, drops repeats, fills the type defaults and drops nothing else', () => {
    expect(
      definitionOf({
        name: '  Night speeding ',
        alertTypeId: 10,
        vehicleIds: [3, 1, 3],
        tags: ['a', 'b', 'a'],
        settings: { maxSpeedKmh: 80 },
      }),
    ).toEqual({
      name: 'Night speeding',
      alertTypeId: 10,
      vehicleIds: [3, 1],
      tags: ['a', 'b'],
      settings: { maxSpeedKmh: 80, minDurationSeconds: 0 },
      isActive: true,
    });
    expect(definitionOf({ name: 'n', alertTypeId: 5, isActive: false })).toMatchObject({
      vehicleIds: [],
      tags: [],
      settings: {},
      isActive: false,
    });
  });

  it.each([
    [{ name: '', alertTypeId: 5 }, /^name: must be 1 to 100 characters/],
    [{ name: 'é'.repeat(100), alertTypeId: 5 }, undefined],
    [{ name: '😀'.repeat(101), alertTypeId: 5 }, /^name: /],
    [{ name: 'a\nb', alertTypeId: 5 }, /^name: must not contain control characters/],
    [{ name: 'n', alertTypeId: 0 }, /^alertTypeId: 0 is not an alert type/],
    [{ name: 'n', alertTypeId: 1 }, /^settings\.geofenceId: is required for type 1/],
    [
      { name: 'n', alertTypeId: 1, settings: { geofenceId: 2.5 } },
      /^settings\.geofenceId: must be a whole number/,
    ],
    [
      { name: 'n', alertTypeId: 9, settings: { thresholdV: 61 } },
      /^settings\.thresholdV: must be between 0 and 60/,
    ],
    [{ name: 'n', alertTypeId: 9, settings: null }, undefined],
    [{ name: 'n', alertTypeId: 9, settings: 'x' }, /^settings: must be an object/],
    [{ name: 'n', alertTypeId: 5, vehicleIds: [0] }, /^vehicleIds\[0\]: must be a vehicle id/],
    [{ name: 'n', alertTypeId: 5, vehicleIds: [2 ** 31] }, /^vehicleIds\[0\]: /],
    [{ name: 'n', alertTypeId: 5, vehicleIds: Array.from({ length: 100 }, (_, i) => i + 1) }, undefined],
    [
      { name: 'n', alertTypeId: 5, vehicleIds: Array.from({ length: 101 }, (_, i) => i + 1) },
      /^vehicleIds: at most 100/,
    ],
    [{ name: 'n', alertTypeId: 5, tags: ['x'.repeat(64)] }, undefined],
    [{ name: 'n', alertTypeId: 5, tags: ['x'.repeat(65)] }, /^tags\[0\]: must be 1 to 64 characters/],
    [
      { name: 'n', alertTypeId: 5, tags: ['ok', 'a\u0000'] },
      /^tags\[1\]: must not contain control characters/,
    ],
    [{ name: 'n', alertTypeId: 5, isActive: 'true' }, /^isActive: must be a boolean/],
  ])('%j: %p', (input, expected) => {
    const description = refusal(input as Record<string, unknown>);
    if (expected === undefined) expect(description).toBeUndefined();
    else expect(description).toMatch(expected);
  });

  it('applies a change: left-out fields keep their value, settings are replaced whole, a new type starts over', () => {
    const current = definitionOf({
      name: 'Battery',
      alertTypeId: 9,
      tags: ['t'],
      settings: { thresholdV: 11 },
    });
    expect(definitionOf(changedInput(current, { name: 'Low battery' }))).toEqual({
      ...current,
      name: 'Low battery',
    });
    expect(definitionOf(changedInput(current, { settings: {} })).settings).toEqual({ thresholdV: 11.8 });
    expect(definitionOf(changedInput(current, { alertTypeId: 3 })).settings).toEqual({ thresholdV: 1 });
    expect(definitionOf(changedInput(current, { alertTypeId: 9, isActive: false }))).toEqual({
      ...current,
      isActive: false,
    });
  });
});
