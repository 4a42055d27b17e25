import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, Step } from '../test/evaluation-harness';

const rpms = (...values: (number | undefined)[]): Step[] =>
  values.map((rpm) => (rpm === undefined ? { speedKmh: 0 } : { rpm }));
const temperatures = (...values: (number | undefined)[]): Step[] =>
  values.map((coolantTempC) => (coolantTempC === undefined ? { speedKmh: 0 } : { coolantTempC }));

describe('exceed RPM (type 16)', () => {
  it.each([
    ['fires above the default 4000 rpm', {}, rpms(2500, 4001), [false, true]],
    ['not at it', {}, rpms(2500, 4000), [false, false]],
    ['on the vehicle’s first fix too', {}, rpms(4500), [true]],
    ['holds down to 95 % of the maximum', {}, rpms(4500, 3800, 4500), [true, false, false]],
    ['re-arms below 95 %', {}, rpms(4500, 3799, 4500), [true, false, true]],
    [
      'a fix without the reading neither fires nor re-arms',
      {},
      rpms(4500, undefined, 4500),
      [true, false, false],
    ],
    [
      'takes its maximum from the settings',
      { maxRpm: 6000 },
      rpms(5000, 6100, 5700, 6100, 5699, 6001),
      [false, true, false, false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.exceedRpm.id, settings, steps)).toEqual(expected);
  });

  it('says the engine speed and the maximum, without webhook data', () => {
    expect(firingsOf(AlertTypes.exceedRpm.id, {}, rpms(4512.4))).toEqual([
      {
        configurationId: 1,
        alertTypeId: 16,
        description: 'Engine speed 4512 rpm, above the maximum of 4000 rpm',
        data: null,
      },
    ]);
  });
});

describe('exceed engine temperature (type 17)', () => {
  it.each([
    ['fires above the default 105 °C', {}, temperatures(90, 105.5), [false, true]],
    ['not at it', {}, temperatures(90, 105), [false, false]],
    ['on the vehicle’s first fix too', {}, temperatures(110), [true]],
    ['holds above max − 3 °C', {}, temperatures(110, 102.1, 110), [true, false, false]],
    ['re-arms at max − 3 °C or cooler', {}, temperatures(110, 102, 110), [true, false, true]],
    [
      'a fix without the reading neither fires nor re-arms',
      {},
      temperatures(110, undefined, 110),
      [true, false, false],
    ],
    [
      'takes its maximum from the settings',
      { maxCoolantTempC: 95.5 },
      temperatures(95.5, 96, 92.6, 96, 92.5, 96),
      [false, true, false, false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.exceedEngineTemperature.id, settings, steps)).toEqual(expected);
  });

  it('says the temperature and the maximum, without webhook data', () => {
    expect(firingsOf(AlertTypes.exceedEngineTemperature.id, {}, temperatures(107.25))).toEqual([
      {
        configurationId: 1,
        alertTypeId: 17,
        description: 'Coolant temperature 107.3 °C, above the maximum of 105 °C',
        data: null,
      },
    ]);
  });
});
