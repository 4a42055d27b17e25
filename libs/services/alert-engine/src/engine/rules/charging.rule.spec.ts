import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, Step } from '../test/evaluation-harness';

const charging: Step = { charging: true };
const notCharging: Step = { charging: false };
const silent: Step = { speedKmh: 0 };

describe('charging (type 15)', () => {
  it.each([
    ['the first fix charging is the baseline', [charging], [false]],
    ['false then true', [notCharging, charging], [false, true]],
    ['true then false fires nothing', [charging, notCharging], [false, false]],
    [
      'charging on and on fires once',
      [notCharging, charging, charging, charging],
      [false, true, false, false],
    ],
    ['a new charge fires again', [notCharging, charging, notCharging, charging], [false, true, false, true]],
    [
      'fixes without the reading keep the last known value',
      [notCharging, silent, charging],
      [false, false, true],
    ],
    ['no known value before: the first reading is the baseline', [silent, charging], [false, false]],
  ])('%s', (_case, steps, expected) => {
    expect(firesOf(AlertTypes.charging.id, {}, steps)).toEqual(expected);
  });

  it('says that charging started, without webhook data', () => {
    expect(firingsOf(AlertTypes.charging.id, {}, [notCharging, charging])).toEqual([
      { configurationId: 1, alertTypeId: 15, description: 'Charging started', data: null },
    ]);
  });
});
