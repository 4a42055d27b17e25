/** The thresholds of the trip and motion rules (docs/trips.md explains each one with examples). */
export interface MotionSettings {
  /** A point is moving at this speed or above (km/h); reported speed, else derived from the previous point. */
  movingSpeedKmh: number;
  /** Radius of a stop, and the least length (and reach from its start) of a trip worth recording (metres). */
  minTripDistanceM: number;
  /** Staying within `minTripDistanceM` of one spot this long (seconds) ends a trip. */
  minStopDurationS: number;
  /** A silence this long (seconds) between consecutive points ends a trip at the point before it. */
  maxGapS: number;
  /** Whether reported ignition gates trips: ignition off ends a trip at once and keeps new ones from starting. */
  useIgnition: boolean;
  /** No movement for this long (seconds) counts as a rest and resets the fatigue clock. */
  restDurationS: number;
}

export const defaultMotionSettings: Readonly<MotionSettings> = Object.freeze({
  movingSpeedKmh: 5,
  minTripDistanceM: 200,
  minStopDurationS: 180,
  maxGapS: 3600,
  useIgnition: true,
  restDurationS: 900,
});

const positiveKeys = ['movingSpeedKmh', 'minStopDurationS', 'maxGapS', 'restDurationS'] as const;

/** Settings this module resolved (frozen): resolving them again returns them as they are. */
const resolvedSettings = new WeakSet<object>();

/**
 * The defaults overlaid with the given values (undefined ones ignored), checked once here so the rules can
 * trust them: a zero or negative threshold would make every point moving or every trip end at once.
 * The result is frozen, and passing it back costs nothing (the projection does, once per position).
 */
export function resolveMotionSettings(settings: Partial<MotionSettings> = {}): MotionSettings {
  if (resolvedSettings.has(settings)) return settings as MotionSettings;
  const resolved: MotionSettings = { ...defaultMotionSettings };
  for (const [key, value] of Object.entries(settings) as [keyof MotionSettings, unknown][]) {
    if (value !== undefined) Object.assign(resolved, { [key]: value });
  }
  for (const key of positiveKeys) {
    if (!Number.isFinite(resolved[key]) || resolved[key] <= 0) {
      throw new RangeError(`motion setting ${key} must be a positive number, got ${resolved[key]}`);
    }
  }
  if (!Number.isFinite(resolved.minTripDistanceM) || resolved.minTripDistanceM < 0) {
    throw new RangeError(
      `motion setting minTripDistanceM must be zero or more, got ${resolved.minTripDistanceM}`,
    );
  }
  if (typeof resolved.useIgnition !== 'boolean') {
    throw new RangeError(`motion setting useIgnition must be a boolean, got ${String(resolved.useIgnition)}`);
  }
  resolvedSettings.add(Object.freeze(resolved));
  return resolved;
}

/**
 * The settings reader the motion rules need: the platform's `EnvReader` fits it. Declared here so
 * that this library stays free of the framework.
 */
export interface MotionSettingsSource {
  int(name: string, fallback?: number, range?: { min?: number; max?: number }): number;
  bool(name: string, fallback?: boolean): boolean;
}

/**
 * `TRIP_*` and `FATIGUE_*` from the environment (README, section Configuration; docs/trips.md). Every
 * service that applies the rules reads them here, so a trip and an alert never use different thresholds.
 */
export function readMotionSettings(env: MotionSettingsSource): MotionSettings {
  const read: MotionSettings = {
    minTripDistanceM: env.int('TRIP_MIN_DISTANCE_M', defaultMotionSettings.minTripDistanceM, { min: 0 }),
    minStopDurationS: env.int('TRIP_MIN_STOP_SECONDS', defaultMotionSettings.minStopDurationS, { min: 1 }),
    maxGapS: env.int('TRIP_MAX_GAP_SECONDS', defaultMotionSettings.maxGapS, { min: 1 }),
    useIgnition: env.bool('TRIP_USE_IGNITION', defaultMotionSettings.useIgnition),
    movingSpeedKmh: env.int('TRIP_MOVING_SPEED_KMH', defaultMotionSettings.movingSpeedKmh, { min: 1 }),
    restDurationS: env.int('FATIGUE_REST_SECONDS', defaultMotionSettings.restDurationS, { min: 1 }),
  };
  try {
    return resolveMotionSettings(read);
  } catch {
    // The reader has already recorded the bad setting, and stops the process with it at its check.
    return resolveMotionSettings();
  }
}
