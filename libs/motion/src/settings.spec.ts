import { defaultMotionSettings, readMotionSettings, resolveMotionSettings } from './settings';

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

describe('readMotionSettings', () => {
  /** A settings source over a plain map that records problems, as the platform's EnvReader does. */
  function source(values: Record<string, string>) {
    const problems: string[] = [];
    return {
      problems,
      int: (name: string, fallback?: number, range: { min?: number } = {}) => {
        if (values[name] === undefined) return fallback as number;
        const parsed = Number(values[name]);
        if (range.min !== undefined && parsed < range.min) problems.push(name);
        return parsed;
      },
      bool: (name: string, fallback?: boolean) =>
        values[name] === undefined ? (fallback as boolean) : values[name] === 'true',
    };
  }

  it('reads the TRIP_* and FATIGUE_* settings, each over its default', () => {
    const settings = readMotionSettings(
      source({
        TRIP_MIN_DISTANCE_M: '0',
        TRIP_MIN_STOP_SECONDS: '60',
        TRIP_MAX_GAP_SECONDS: '600',
        TRIP_USE_IGNITION: 'false',
        TRIP_MOVING_SPEED_KMH: '8',
        FATIGUE_REST_SECONDS: '1200',
      }),
    );
    expect(settings).toEqual({
      minTripDistanceM: 0,
      minStopDurationS: 60,
      maxGapS: 600,
      useIgnition: false,
      movingSpeedKmh: 8,
      restDurationS: 1200,
    });
    expect(readMotionSettings(source({}))).toEqual({
      minTripDistanceM: 200,
      minStopDurationS: 180,
      maxGapS: 3600,
      useIgnition: true,
      movingSpeedKmh: 5,
      restDurationS: 900,
    });
  });

  it('leaves a bad setting to the reader to report, instead of throwing before it can', () => {
    const env = source({ TRIP_MIN_STOP_SECONDS: '0' });
    expect(readMotionSettings(env).minStopDurationS).toBe(180);
    expect(env.problems).toEqual(['TRIP_MIN_STOP_SECONDS']);
  });
});
