import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, LONDON, Step } from '../test/evaluation-harness';
import { isSunDown } from './after-dark.rule';

const SYDNEY = { lat: -33.8688, lng: 151.2093 };
const LONGYEARBYEN = { lat: 78.2232, lng: 15.6267 };

// Published sun times, rounded to the minute, in UTC:
// London 21 June 2024 sunrise 03:43, sunset 20:21; Sydney 21 December 2024 sunrise 18:41 (the 20th),
// sunset 09:05; Longyearbyen has midnight sun in June and polar night in December.
describe('isSunDown', () => {
  it.each([
    ['London, before sunrise', LONDON, '2024-06-21T03:38:00Z', true],
    ['London, after sunrise', LONDON, '2024-06-21T03:48:00Z', false],
    ['London, midday', LONDON, '2024-06-21T12:00:00Z', false],
    ['London, before sunset', LONDON, '2024-06-21T20:16:00Z', false],
    ['London, after sunset', LONDON, '2024-06-21T20:26:00Z', true],
    ['London, midnight', LONDON, '2024-06-21T23:59:00Z', true],
    ['Sydney, before sunrise', SYDNEY, '2024-12-20T18:36:00Z', true],
    ['Sydney, after sunrise', SYDNEY, '2024-12-20T18:46:00Z', false],
    ['Sydney, before sunset', SYDNEY, '2024-12-21T09:00:00Z', false],
    ['Sydney, after sunset', SYDNEY, '2024-12-21T09:10:00Z', true],
    ['Longyearbyen, midnight sun', LONGYEARBYEN, '2024-06-21T23:00:00Z', false],
    ['Longyearbyen, polar night at noon', LONGYEARBYEN, '2024-12-21T11:00:00Z', true],
  ])('%s', (_case, place, time, expected) => {
    expect(isSunDown(place, Date.parse(time))).toBe(expected);
  });
});

describe('driving after dark (type 20)', () => {
  const night = Date.parse('2024-06-21T22:00:00Z');
  const day = Date.parse('2024-06-21T12:00:00Z');
  const drive = (start: number, ...speeds: (number | undefined)[]): Step[] =>
    speeds.map((speedKmh, index) => ({ fixTime: start + index * 10_000, speedKmh }));
  const withoutSpeed = (steps: Step[], index: number): Step[] =>
    steps.map((step, i) => (i === index ? { fixTime: step.fixTime } : step));

  it.each([
    ['fires when moving at night', drive(night, 0, 30), [false, true]],
    ['on the vehicle’s first fix too', drive(night, 50), [true]],
    ['from 10 km/h', drive(night, 9.9, 10), [false, true]],
    ['once per episode', drive(night, 30, 50, 80, 20), [true, false, false, false]],
    ['stopping re-arms', drive(night, 30, 5, 30), [true, false, true]],
    ['never in daylight', drive(day, 30, 50, 80), [false, false, false]],
    [
      'a fix without a speed neither fires nor re-arms',
      withoutSpeed(drive(night, 30, 0, 30), 1),
      [true, false, false],
    ],
  ])('%s', (_case, steps, expected) => {
    expect(firesOf(AlertTypes.drivingAfterDark.id, {}, steps)).toEqual(expected);
  });

  it('fires when the sun sets under a moving vehicle, once, and re-arms when it rises', () => {
    const steps: Step[] = [
      { fixTime: Date.parse('2024-06-21T20:16:00Z'), speedKmh: 50 },
      { fixTime: Date.parse('2024-06-21T20:26:00Z'), speedKmh: 50 },
      { fixTime: Date.parse('2024-06-22T02:00:00Z'), speedKmh: 50 },
      { fixTime: Date.parse('2024-06-22T04:00:00Z'), speedKmh: 50 },
      { fixTime: Date.parse('2024-06-22T21:00:00Z'), speedKmh: 50 },
    ];
    expect(firesOf(AlertTypes.drivingAfterDark.id, {}, steps)).toEqual([false, true, false, false, true]);
  });

  it('judges the sun at the fix’s position, not the company’s', () => {
    // 09:10 UTC on 21 December: evening in Sydney, morning in London.
    const time = Date.parse('2024-12-21T09:10:00Z');
    expect(firesOf(AlertTypes.drivingAfterDark.id, {}, [{ fixTime: time, ...SYDNEY, speedKmh: 40 }])).toEqual(
      [true],
    );
    expect(firesOf(AlertTypes.drivingAfterDark.id, {}, [{ fixTime: time, ...LONDON, speedKmh: 40 }])).toEqual(
      [false],
    );
  });

  it('says the speed, without webhook data', () => {
    expect(firingsOf(AlertTypes.drivingAfterDark.id, {}, drive(night, 42))).toEqual([
      {
        configurationId: 1,
        alertTypeId: 20,
        description: 'Driving at 42 km/h after dark (the sun is down at this position)',
        data: null,
      },
    ]);
  });
});
