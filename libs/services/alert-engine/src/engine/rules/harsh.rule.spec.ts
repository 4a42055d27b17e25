import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, Step } from '../test/evaluation-harness';

/** One fix a second at each speed (undefined: a fix without a speed). */
const perSecond = (...values: (number | undefined)[]): Step[] =>
  values.map((speedKmh, index) => (speedKmh === undefined ? { at: index } : { at: index, speedKmh }));

// 1 g is 9.80665 m/s², 35.3 km/h per second: 0.4 g is 14.1 km/h lost in a second, 0.3 g 10.6 km/h gained.
describe('harsh braking (type 12)', () => {
  it.each([
    ['fires at the default 0.4 g (50 → 35 km/h in 1 s: 0.42 g)', {}, perSecond(50, 35), [false, true]],
    ['not just below it (50 → 36 km/h in 1 s: 0.397 g)', {}, perSecond(50, 36), [false, false]],
    ['never on the vehicle’s first fix', {}, perSecond(0), [false]],
    ['acceleration is not braking', {}, perSecond(20, 60), [false, false]],
    ['once per episode', {}, perSecond(90, 70, 50, 30), [false, true, false, false]],
    [
      're-arms at the next pair below the threshold',
      {},
      perSecond(90, 70, 65, 45),
      [false, true, false, true],
    ],
    [
      'a fix without a speed neither fires nor re-arms',
      {},
      perSecond(90, 70, undefined, 60, 40),
      [false, true, false, false, false],
    ],
    [
      'takes its threshold from the settings',
      { thresholdG: 0.8 },
      perSecond(90, 70, 90, 60),
      [false, false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.harshBraking.id, settings, steps)).toEqual(expected);
  });

  it('measures nothing across a gap of more than 5 s', () => {
    const steps: Step[] = [
      { at: 0, speedKmh: 100 },
      { at: 6, speedKmh: 0 },
      { at: 11, speedKmh: 0 },
    ];
    expect(firesOf(AlertTypes.harshBraking.id, {}, steps)).toEqual([false, false, false]);
    steps[1].at = 5;
    expect(firesOf(AlertTypes.harshBraking.id, {}, steps)).toEqual([false, true, false]);
  });

  it('says how hard, from what speed to what, without webhook data', () => {
    expect(
      firingsOf(AlertTypes.harshBraking.id, {}, [
        { at: 0, speedKmh: 72 },
        { at: 2, speedKmh: 36 },
      ]),
    ).toEqual([
      {
        configurationId: 1,
        alertTypeId: 12,
        description: 'Harsh braking: 0.51 g, 72 to 36 km/h in 2 s (threshold 0.4 g)',
        data: null,
      },
    ]);
  });
});

describe('harsh acceleration (type 13)', () => {
  it.each([
    ['fires at the default 0.3 g (0 → 11 km/h in 1 s: 0.31 g)', {}, perSecond(0, 11), [false, true]],
    ['not below it (0 → 10 km/h in 1 s: 0.28 g)', {}, perSecond(0, 10), [false, false]],
    ['braking is not acceleration', {}, perSecond(60, 20), [false, false]],
    [
      'once per episode, re-armed by a gentler pair',
      {},
      perSecond(0, 15, 30, 35, 50),
      [false, true, false, false, true],
    ],
    [
      'takes its threshold from the settings',
      { thresholdG: 0.5 },
      perSecond(0, 15, 30, 50),
      [false, false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.harshAcceleration.id, settings, steps)).toEqual(expected);
  });

  it('says how hard, without webhook data', () => {
    expect(
      firingsOf(AlertTypes.harshAcceleration.id, {}, [
        { at: 0, speedKmh: 0 },
        { at: 2, speedKmh: 36 },
      ]),
    ).toEqual([
      {
        configurationId: 1,
        alertTypeId: 13,
        description: 'Harsh acceleration: 0.51 g, 0 to 36 km/h in 2 s (threshold 0.3 g)',
        data: null,
      },
    ]);
  });
});

describe('harsh events the tracker reports itself (deviceEvents)', () => {
  it('fires on the tracker’s word even when the speeds show nothing, once per episode', () => {
    const steps: Step[] = [
      { at: 0, speedKmh: 50 },
      { at: 1, speedKmh: 49, deviceEvents: ['harshBraking'] },
      { at: 2, speedKmh: 48, deviceEvents: ['harshBraking'] },
      { at: 3, speedKmh: 47 },
      { at: 4, speedKmh: 46, deviceEvents: ['harshBraking'] },
    ];
    expect(firesOf(AlertTypes.harshBraking.id, {}, steps)).toEqual([false, true, false, false, true]);
  });

  it('tells braking from acceleration', () => {
    const steps: Step[] = [{ at: 0, speedKmh: 50, deviceEvents: ['harshAcceleration'] }];
    expect(firesOf(AlertTypes.harshBraking.id, {}, steps)).toEqual([false]);
    expect(firesOf(AlertTypes.harshAcceleration.id, {}, steps)).toEqual([true]);
  });
});
