import { defaultMotionSettings, resolveMotionSettings } from './settings';

describe('resolveMotionSettings', () => {
  it('fills in the documented defaults', () => {
    expect(resolveMotionSettings()).toEqual({
      movingSpeedKmh: 5,
      minTripDistanceM: 200,
      minStopDurationS: 180,
      maxGapS: 3600,
      useIgnition: true,
      restDurationS: 900,
    });
    expect(Object.isFrozen(defaultMotionSettings)).toBe(true);
  });

  it('overrides only the given values, ignoring undefined ones', () => {
    expect(resolveMotionSettings({ maxGapS: 600, useIgnition: false, restDurationS: undefined })).toEqual({
      ...defaultMotionSettings,
      maxGapS: 600,
      useIgnition: false,
    });
  });

  it('rejects thresholds that would make the rules meaningless', () => {
    expect(() => resolveMotionSettings({ minStopDurationS: 0 })).toThrow('minStopDurationS');
    expect(() => resolveMotionSettings({ movingSpeedKmh: Number.NaN })).toThrow('movingSpeedKmh');
    expect(() => resolveMotionSettings({ minTripDistanceM: -5 })).toThrow('minTripDistanceM');
    expect(resolveMotionSettings({ minTripDistanceM: 0 }).minTripDistanceM).toBe(0);
  });

  it('returns settings it resolved as they are, frozen, and still checks look-alikes', () => {
    const resolved = resolveMotionSettings({ maxGapS: 600 });
    expect(resolveMotionSettings(resolved)).toBe(resolved);
    expect(Object.isFrozen(resolved)).toBe(true);
    const copy = { ...resolved, maxGapS: -1 };
    expect(() => resolveMotionSettings(copy)).toThrow('maxGapS');
  });
});
