import { instantMs, isoInstant } from '@fleet/contracts';
import { initialMotionCore, MotionCore, qualifiesAsTrip, stepMotion } from './motion-core';
import { MotionPoint } from './motion-point';
import { MotionSettings, resolveMotionSettings } from './settings';

/** Bumped when the stored shape changes; a state of another version is discarded and rebuilt from scratch. */
export const MOTION_STATE_VERSION = 1;

/** A trip the live state saw complete, as the projection records it. Times are ISO 8601 UTC. */
export interface CompletedTripSummary {
  startTime: string;
  endTime: string;
  distanceM: number;
  maxSpeedKmh: number;
}

/**
 * Motion facts of one vehicle as of its latest position, kept with the last-position record (jsonb):
 * times are ISO 8601 UTC strings, durations seconds, so it survives JSON unchanged. docs/trips.md.
 */
export interface MotionState {
  version: typeof MOTION_STATE_VERSION;
  /** Fix time of the last applied point. */
  fixTime: string;
  /** Whether the last point was moving (speed at or above `movingSpeedKmh`, never while ignition is off). */
  moving: boolean;
  /** Speed of the last point: reported, else derived from the point before it. */
  speedKmh: number;
  /** Start of the current movement (from the first moving point until a stop, ignition off or a gap), or of the last one. */
  startMovingTime: string | null;
  /** Fix time of the most recent moving point. */
  lastMovementTime: string | null;
  /** Driving seconds of the current trip (intervals between its consecutive moving points); 0 when there is none. */
  drivingTimeS: number;
  /** Driving seconds since the last rest of at least `restDurationS` without movement. */
  fatigueS: number;
  /** Last reported ignition; null when the vehicle never reported one. */
  ignition: boolean | null;
  /** When the ignition last turned on (as far as the reports show); null while off or unknown. */
  ignitionOnSince: string | null;
  /** Seconds since `ignitionOnSince`; 0 while off; null when the vehicle has no ignition data. */
  ignitionTimeS: number | null;
  /** Start of the current trip, else of the last completed one. */
  tripStartedTime: string | null;
  /** End of the last completed trip; null while a trip is ongoing or before the first. */
  tripEndTime: string | null;
  /** Seconds from the current trip's start, else from the last trip's end, to `fixTime`; 0 before any trip. */
  timeElapsedS: number;
  lastTrip: CompletedTripSummary | null;
  /** The rules' own memory (previous point, stop anchor, motion in progress); epoch milliseconds. */
  core: MotionCore;
}

const iso = isoInstant;
const ms = (time: string | null): number | null => (time === null ? null : instantMs(time));

/** A stored state this code can continue from (a jsonb value may predate the current shape). */
export function isCurrentMotionState(value: unknown): value is MotionState {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<MotionState>;
  return (
    candidate.version === MOTION_STATE_VERSION &&
    typeof candidate.fixTime === 'string' &&
    typeof candidate.core === 'object' &&
    candidate.core !== null
  );
}

/**
 * The live motion state after one more point of the vehicle. Feed points in fix-time order; a point not
 * newer than `state.fixTime` returns the state unchanged, so re-applying a delivered point is harmless.
 * A state of another shape or version is ignored (the vehicle starts over from this point).
 */
export function advanceMotionState(
  state: MotionState | undefined,
  point: MotionPoint,
  settings?: Partial<MotionSettings>,
): MotionState {
  const resolved = resolveMotionSettings(settings);
  const before = isCurrentMotionState(state) ? state : undefined;
  const t = point.fixTime.getTime();
  if (before && t <= instantMs(before.fixTime)) return before;

  const step = stepMotion(before?.core ?? initialMotionCore(), point, resolved);
  const { core, closed, moving } = step;

  let lastTrip = before?.lastTrip ?? null;
  if (closed?.kept) {
    lastTrip = {
      startTime: iso(closed.start.t),
      endTime: iso(closed.extent.end.t),
      distanceM: closed.extent.distanceM,
      maxSpeedKmh: closed.extent.maxSpeedKmh,
    };
  }

  // Fatigue: restDurationS without movement is a rest; otherwise every driving interval adds up, across trips.
  const lastMovementBefore = ms(before?.lastMovementTime ?? null);
  const rested = lastMovementBefore !== null && (t - lastMovementBefore) / 1000 >= resolved.restDurationS;
  const fatigueS = rested ? 0 : (before?.fatigueS ?? 0) + step.drivingIntervalS;

  const candidate = core.candidate;
  const trip = candidate && qualifiesAsTrip(candidate.moved, resolved) ? candidate : null;
  const lastTripEnd = ms(lastTrip?.endTime ?? null);

  // Each ISO string once: the projection advances a state per position, thousands a second.
  const fixTime = iso(t);
  const startMovingTime = candidate
    ? before?.core.candidate?.start.t === candidate.start.t && before.startMovingTime !== null
      ? before.startMovingTime
      : iso(candidate.start.t)
    : null;
  const ignitionOnSince =
    core.ignition === true ? (before?.ignition === true ? before.ignitionOnSince : fixTime) : null;
  const ignitionSince = ms(ignitionOnSince);

  return {
    version: MOTION_STATE_VERSION,
    fixTime,
    moving,
    speedKmh: step.speedKmh,
    startMovingTime: startMovingTime ?? before?.startMovingTime ?? null,
    lastMovementTime: moving ? fixTime : (before?.lastMovementTime ?? null),
    drivingTimeS: trip ? trip.running.drivingS : 0,
    fatigueS,
    ignition: core.ignition,
    ignitionOnSince,
    ignitionTimeS: core.ignition === null ? null : ignitionSince === null ? 0 : (t - ignitionSince) / 1000,
    // `trip` is the candidate, so its start is `startMovingTime`.
    tripStartedTime: trip ? startMovingTime : (lastTrip?.startTime ?? null),
    tripEndTime: trip ? null : (lastTrip?.endTime ?? null),
    timeElapsedS: trip ? (t - trip.start.t) / 1000 : lastTripEnd !== null ? (t - lastTripEnd) / 1000 : 0,
    lastTrip,
    core,
  };
}

/** The trip that the step from `before` to `after` completed, if any: what the projection records. */
export function tripCompletedBetween(
  before: MotionState | undefined,
  after: MotionState,
): CompletedTripSummary | null {
  const previous = before?.lastTrip ?? null;
  const current = after.lastTrip;
  if (!current) return null;
  if (previous && previous.startTime === current.startTime && previous.endTime === current.endTime)
    return null;
  return current;
}
