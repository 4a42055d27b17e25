import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, Step } from '../test/evaluation-harness';

/** One fix every 10 s at each speed (undefined: a fix without a speed). */
const speeds = (...values: (number | undefined)[]): Step[] =>
  values.map((speedKmh, index) =>
    speedKmh === undefined ? { at: index * 10 } : { at: index * 10, speedKmh },
  );

describe('overspeed (type 10)', () => {
  it.each([
    ['fires on the first fix above the default 100 km/h', {}, speeds(90, 101), [false, true]],
    ['not at the maximum itself', {}, speeds(90, 100), [false, false]],
    ['with no minimum duration, even on the vehicle’s first fix', {}, speeds(120), [true]],
    ['fires once while above', {}, speeds(110, 120, 105, 130), [true, false, false, false]],
    [
      'a fired episode holds between max − 5 and max',
      {},
      speeds(110, 96, 100, 110),
      [true, false, false, false],
    ],
    ['and re-arms at max − 5 or below', {}, speeds(110, 95, 110), [true, false, true]],
    [
      'a fix without a speed neither fires nor re-arms',
      {},
      speeds(110, undefined, 110),
      [true, false, false],
    ],
    [
      'takes its maximum from the settings',
      { maxSpeedKmh: 50 },
      speeds(49, 51, 45, 51),
      [false, true, false, true],
    ],
    // 30 s minimum: fixes every 10 s, the episode starts at the first fix above.
    [
      'waits for the minimum duration',
      { minDurationSeconds: 30 },
      speeds(90, 110, 110, 110, 110, 110),
      [false, false, false, false, true, false],
    ],
    [
      'a short burst above does not fire',
      { minDurationSeconds: 30 },
      speeds(110, 110, 90, 110, 110),
      [false, false, false, false, false],
    ],
    [
      'a fix at or below the maximum restarts the clock',
      { minDurationSeconds: 20 },
      speeds(110, 110, 99, 110, 110, 110),
      [false, false, false, false, false, true],
    ],
    [
      'the first fix above starts the clock',
      { minDurationSeconds: 20 },
      speeds(110, 110, 110),
      [false, false, true],
    ],
    [
      'a fix without a speed keeps the clock running',
      { minDurationSeconds: 20 },
      speeds(110, undefined, 110),
      [false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.overspeed.id, settings, steps)).toEqual(expected);
  });

  it('measures the duration by fix times, however sparse the fixes', () => {
    const steps: Step[] = [
      { at: 0, speedKmh: 120 },
      { at: 59, speedKmh: 120 },
      { at: 60, speedKmh: 120 },
    ];
    expect(firesOf(AlertTypes.overspeed.id, { minDurationSeconds: 60 }, steps)).toEqual([false, false, true]);
  });

  it('says the speed, the maximum and the duration, with the webhook data', () => {
    expect(firingsOf(AlertTypes.overspeed.id, {}, speeds(112.34))).toEqual([
      {
        configurationId: 1,
        alertTypeId: 10,
        description: 'Speed 112.3 km/h, above the maximum of 100 km/h',
        data: { speed: 112.34, maxSpeed: 100 },
      },
    ]);
    expect(
      firingsOf(AlertTypes.overspeed.id, { maxSpeedKmh: 80, minDurationSeconds: 15 }, speeds(85, 86, 87)),
    ).toEqual([
      {
        configurationId: 1,
        alertTypeId: 10,
        description: 'Speed 87 km/h, above the maximum of 80 km/h for 20 s',
        data: { speed: 87, maxSpeed: 80 },
      },
    ]);
  });
});
