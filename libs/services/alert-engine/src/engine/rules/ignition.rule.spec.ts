import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, Step } from '../test/evaluation-harness';

const on: Step = { ignition: true };
const off: Step = { ignition: false };
const silent: Step = { speedKmh: 0 };

describe('ignition on (type 5) and off (type 8)', () => {
  it.each([
    ['the first fix is the baseline', [on], [false], [false]],
    ['the first fix off is the baseline too', [off], [false], [false]],
    ['off then on', [off, on], [false, true], [false, false]],
    ['on then off', [on, off], [false, false], [false, true]],
    ['a steady state fires nothing', [on, on, on], [false, false, false], [false, false, false]],
    ['each change fires once', [off, on, off, on], [false, true, false, true], [false, false, true, false]],
    [
      'fixes without the reading keep the last known value',
      [off, silent, silent, on],
      [false, false, false, true],
      [false, false, false, false],
    ],
    [
      'a fix without the reading changes nothing',
      [on, silent, on],
      [false, false, false],
      [false, false, false],
    ],
    [
      'no known value before: the first reading is the baseline',
      [silent, silent, on, off],
      [false, false, false, false],
      [false, false, false, true],
    ],
  ])('%s', (_case, steps, expectOn, expectOff) => {
    expect(firesOf(AlertTypes.ignitionOn.id, {}, steps)).toEqual(expectOn);
    expect(firesOf(AlertTypes.ignitionOff.id, {}, steps)).toEqual(expectOff);
  });

  it('says what happened, with the webhook data', () => {
    expect(firingsOf(AlertTypes.ignitionOn.id, {}, [off, on])).toEqual([
      { configurationId: 1, alertTypeId: 5, description: 'Ignition turned on', data: { isStarted: true } },
    ]);
    expect(firingsOf(AlertTypes.ignitionOff.id, {}, [on, off])).toEqual([
      { configurationId: 1, alertTypeId: 8, description: 'Ignition turned off', data: { isStarted: false } },
    ]);
  });
});
