import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, Step } from '../test/evaluation-harness';

const volts = (...values: (number | undefined)[]): Step[] =>
  values.map((powerV) => (powerV === undefined ? { speedKmh: 0 } : { powerV }));

describe('power cut (type 3)', () => {
  it.each([
    ['fires at the default 1 V', {}, volts(12.6, 1), [false, true]],
    ['fires below it', {}, volts(12.6, 0), [false, true]],
    ['does not fire just above it', {}, volts(12.6, 1.05), [false, false]],
    ['fires on the first fix when cut', {}, volts(0), [true]],
    ['fires once while cut', {}, volts(0, 0, 0.4, 0), [true, false, false, false]],
    ['holds within 0.3 V above the threshold', {}, volts(0, 1.3, 0), [true, false, false]],
    ['re-arms above threshold + 0.3 V', {}, volts(0, 1.31, 0), [true, false, true]],
    ['a fix without the reading neither fires nor re-arms', {}, volts(0, undefined, 0), [true, false, false]],
    [
      'takes its threshold from the settings',
      { thresholdV: 9 },
      volts(12, 8.5, 9.2, 9.4, 9),
      [false, true, false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.powerCut.id, settings, steps)).toEqual(expected);
  });

  it('says the voltage, without webhook data', () => {
    expect(firingsOf(AlertTypes.powerCut.id, {}, volts(12.6, 0.2))).toEqual([
      {
        configurationId: 1,
        alertTypeId: 3,
        description: 'External power cut: 0.2 V, at or below 1 V',
        data: null,
      },
    ]);
  });
});

describe('low battery (type 9)', () => {
  it.each([
    ['fires below the default 11.8 V', {}, volts(12.6, 11.7), [false, true]],
    ['not at the threshold itself', {}, volts(12.6, 11.8), [false, false]],
    ['fires on the first fix when low', {}, volts(11.5), [true]],
    ['fires once while low', {}, volts(11.5, 11.2, 11.6), [true, false, false]],
    ['holds between the threshold and threshold + 0.3 V', {}, volts(11.5, 12.0, 11.5), [true, false, false]],
    ['re-arms at threshold + 0.3 V', {}, volts(11.5, 12.1, 11.5), [true, false, true]],
    ['a cut (at or below 1 V) does not fire', {}, volts(12.6, 1, 0), [false, false, false]],
    ['a cut neither re-arms nor ends the episode', {}, volts(11.5, 0, 11.5), [true, false, false]],
    ['just above the cut voltage is low', {}, volts(12.6, 1.1), [false, true]],
    [
      'a fix without the reading neither fires nor re-arms',
      {},
      volts(11.5, undefined, 11.5),
      [true, false, false],
    ],
    [
      'takes its threshold from the settings',
      { thresholdV: 24 },
      volts(25, 23.9, 24.2, 23.5, 24.3, 23),
      [false, true, false, false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.lowBattery.id, settings, steps)).toEqual(expected);
  });

  it('says the voltage and the threshold, with the webhook data', () => {
    expect(firingsOf(AlertTypes.lowBattery.id, {}, volts(11.25))).toEqual([
      {
        configurationId: 1,
        alertTypeId: 9,
        description: 'Low battery: 11.25 V, below the threshold of 11.8 V',
        data: { voltage: 11.25, threshold: 11.8 },
      },
    ]);
  });
});

describe('a power cut the tracker reports itself (deviceEvents)', () => {
  it('fires without a voltage reading, and re-arms once the voltage is back', () => {
    const steps: Step[] = [
      { at: 0, powerV: 12.6 },
      { at: 1, deviceEvents: ['powerCut'] },
      { at: 2, deviceEvents: ['powerCut'] },
      { at: 3, powerV: 12.6 },
      { at: 4, deviceEvents: ['powerCut'] },
    ];
    expect(firesOf(AlertTypes.powerCut.id, {}, steps)).toEqual([false, true, false, false, true]);
  });
});
