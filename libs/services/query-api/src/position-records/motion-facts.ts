import {
  advanceMotionState,
  isCurrentMotionState,
  MotionPoint,
  MotionSettings,
  MotionState,
  tripCompletedBetween,
} from '@fleet/motion';
import { MotionFacts } from './position-view';

/** What the `motion` column holds: a motion state, or something older the engine starts over from. */
export type StoredMotion = MotionState | Record<string, unknown> | null | undefined;

export interface CompletedTrip {
  start: Date;
  end: Date;
  distanceM: number;
  maxSpeedKmh: number;
}

/** The projection's view of the motion rules (@fleet/motion): advance a vehicle's state, spot completed trips. */
export class MotionEngine {
  constructor(private readonly settings: MotionSettings) {}

  advance(state: StoredMotion, point: MotionPoint): MotionState {
    return advanceMotionState(isCurrentMotionState(state) ? state : undefined, point, this.settings);
  }

  completedTrip(before: StoredMotion, after: MotionState): CompletedTrip | null {
    const trip = tripCompletedBetween(isCurrentMotionState(before) ? before : undefined, after);
    return trip
      ? {
          start: new Date(trip.startTime),
          end: new Date(trip.endTime),
          distanceM: trip.distanceM,
          maxSpeedKmh: trip.maxSpeedKmh,
        }
      : null;
  }
}

const date = (value: string | null): Date | null => (value === null ? null : new Date(value));

const noMotion: MotionFacts = {
  startMovingTime: null,
  lastMovementTime: null,
  drivingTimeS: 0,
  fatigueS: 0,
  ignitionTimeS: null,
  tripStartedTime: null,
  tripEndTime: null,
  timeElapsedS: 0,
};

/** The record's derived fields from a stored motion state (none yet: all empty). */
export function motionFactsOf(stored: StoredMotion): MotionFacts {
  if (!isCurrentMotionState(stored)) return noMotion;
  return {
    startMovingTime: date(stored.startMovingTime),
    lastMovementTime: date(stored.lastMovementTime),
    drivingTimeS: stored.drivingTimeS,
    fatigueS: stored.fatigueS,
    ignitionTimeS: stored.ignitionTimeS,
    tripStartedTime: date(stored.tripStartedTime),
    tripEndTime: date(stored.tripEndTime),
    timeElapsedS: stored.timeElapsedS,
  };
}

/**
 * Derived fields along a slice of history (oldest first), replayed from the slice's first point: a
 * history page does not know what happened before it, so facts that reach further back start there.
 */
export function replayMotionFacts(
  rows: readonly {
    fixTime: Date;
    lat: number;
    lng: number;
    speedKmh: number | null;
    ignition: boolean | null;
  }[],
  settings: MotionSettings,
): MotionFacts[] {
  const engine = new MotionEngine(settings);
  let state: MotionState | undefined;
  return rows.map((row, index) => {
    state = engine.advance(state, {
      id: String(index),
      fixTime: row.fixTime,
      lat: row.lat,
      lng: row.lng,
      speedKmh: row.speedKmh ?? undefined,
      ignition: row.ignition ?? undefined,
    });
    return motionFactsOf(state);
  });
}
