import { odometerOffsetM, shownOdometerM } from './odometer-offset';

describe('odometer offsets', () => {
  it.each([
    // requested km, device metres, offset metres
    [50, 10_000, 40_000],
    [5, 10_000, -5_000],
    [10, 10_000, 0],
    [0, 123_456.7, -123_456.7],
    [12_345.6, 0, 12_345_600],
    [0.1, 0, 100],
    [100, 12_000.3, 87_999.7],
  ])('sets %p km against a reading of %p m with an offset of %p m', (km, device, offset) => {
    expect(odometerOffsetM(km, device)).toBe(offset);
  });

  it('takes a device that never reported an odometer as reading 0', () => {
    expect(odometerOffsetM(30, null)).toBe(30_000);
  });

  it('makes the latest reading show the requested value, and later readings count on from it', () => {
    const offset = odometerOffsetM(50, 10_000);
    expect(shownOdometerM(10_000, offset)).toBe(50_000);
    expect(shownOdometerM(12_500, offset)).toBe(52_500);
  });

  it('shows readings unchanged without an offset', () => {
    expect(shownOdometerM(1_523.4, 0)).toBe(1_523.4);
  });

  it('never shows less than 0 (a device that restarted its count under a negative offset)', () => {
    const offset = odometerOffsetM(5, 10_000);
    expect(shownOdometerM(2_000, offset)).toBe(0);
    expect(shownOdometerM(16_000, offset)).toBe(11_000);
  });
});
