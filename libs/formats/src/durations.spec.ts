import { dotNetTimeSpan, isoDuration } from './durations';

describe('isoDuration', () => {
  it.each([
    [0, 'PT0S'],
    [3, 'PT3S'],
    [60, 'PT1M'],
    [3723, 'PT1H2M3S'],
    [3600, 'PT1H'],
    [86_400, 'P1D'],
    [93_600, 'P1DT2H'],
    [90_061, 'P1DT1H1M1S'],
    [1.5, 'PT1.5S'],
    [61.25, 'PT1M1.25S'],
    [0.001, 'PT0.001S'],
    [2.0004, 'PT2S'],
    [59.9996, 'PT1M'],
    [-1800, '-PT30M'],
    [-0.0001, 'PT0S'],
    [40 * 86_400 + 5, 'P40DT5S'],
  ])('writes %p seconds as %s', (seconds, expected) => {
    expect(isoDuration(seconds)).toBe(expected);
  });

  it('rejects what is not a finite number', () => {
    expect(() => isoDuration(Number.NaN)).toThrow(RangeError);
    expect(() => isoDuration(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('dotNetTimeSpan', () => {
  it.each([
    [0, '00:00:00'],
    [3723, '01:02:03'],
    [93_600, '1.02:00:00'],
    [86_399, '23:59:59'],
    [1.5, '00:00:01.5000000'],
    [0.0000001, '00:00:00.0000001'],
    [59.99999999, '00:01:00'],
    [-1800, '-00:30:00'],
    [-90_000.25, '-1.01:00:00.2500000'],
    [365 * 86_400, '365.00:00:00'],
  ])('writes %p seconds as %s', (seconds, expected) => {
    expect(dotNetTimeSpan(seconds)).toBe(expected);
  });

  it('keeps the fraction of a large value', () => {
    expect(dotNetTimeSpan(1_000_000_000.5)).toBe('11574.01:46:40.5000000');
  });

  it('rejects what is not a finite number', () => {
    expect(() => dotNetTimeSpan(Number.NaN)).toThrow(RangeError);
  });
});
