import { haversineMetres } from '@fleet/geo';
import { MotionPoint } from './motion-point';
import { MotionSettings } from './settings';

/**
 * The trip rules, written once. Both the batch {@link TripDetector} and the live {@link advanceMotionState}
 * fold points through {@link stepMotion}, so they cannot disagree about where trips start and end.
 * Everything here is plain JSON (epoch milliseconds, no Dates): the live state stores it in a jsonb column.
 * docs/trips.md states the rules in prose.
 */

/** A point reduced to what the rules remember. `seq` numbers the points applied to one core, from 0. */
export interface CoreFix {
  seq: number;
  /** Fix time, epoch milliseconds. */
  t: number;
  lat: number;
  lng: number;
}

/** Measures of a trip candidate from its start up to (and including) `end`. */
export interface TripExtent {
  end: CoreFix;
  /** Haversine sum along the points. */
  distanceM: number;
  /** Farthest any point got from the start, in metres: what tells a journey from parking-lot drift. */
  reachM: number;
  maxSpeedKmh: number;
  /** Sum of the driving intervals (see {@link MotionStep.drivingIntervalS}). */
  drivingS: number;
}

/**
 * Motion that may become a trip: it starts at a moving point and lasts until a stop, ignition off or a gap.
 * `anchor` is the spot the vehicle may be stopping at: the latest point from which every later point
 * stayed within `minTripDistanceM`.
 */
export interface TripCandidate {
  start: CoreFix;
  anchor: CoreFix;
  /** Up to the latest point. */
  running: TripExtent;
  /** Up to the latest moving point: where the trip ends if a stop ends it. */
  moved: TripExtent;
}

export interface MotionCore {
  /** Number of points applied so far; the next point gets this as its `seq`. */
  seq: number;
  last: (CoreFix & { moving: boolean }) | null;
  /** Last reported ignition, carried over points that do not report it; null if never reported. */
  ignition: boolean | null;
  candidate: TripCandidate | null;
}

export type TripEndReason = 'stop' | 'gap' | 'ignition';

/** A candidate that ended at this point; `kept` says whether it counts as a trip. */
export interface ClosedCandidate {
  start: CoreFix;
  extent: TripExtent;
  reason: TripEndReason;
  kept: boolean;
}

export interface MotionStep {
  core: MotionCore;
  /** Reported speed, else derived from the previous point (0 when there is none usable). */
  speedKmh: number;
  moving: boolean;
  /** Whether this point follows the previous one after at least `maxGapS`. */
  gap: boolean;
  /** Seconds since the previous point (0 for the first). */
  intervalS: number;
  /**
   * The interval counted as driving: between two moving points, except across a gap or when it lasts
   * `restDurationS` or more (nothing shows the vehicle kept going; the fatigue rule treats it as a rest).
   */
  drivingIntervalS: number;
  closed: ClosedCandidate | null;
}

export function initialMotionCore(seq = 0): MotionCore {
  return { seq, last: null, ignition: null, candidate: null };
}

/** A candidate is a trip once it got farther than `minTripDistanceM` from its start and is at least that long. */
export function qualifiesAsTrip(extent: TripExtent, settings: MotionSettings): boolean {
  return extent.reachM > settings.minTripDistanceM && extent.distanceM >= settings.minTripDistanceM;
}

function fixOf(point: MotionPoint, seq: number): CoreFix {
  const t = point.fixTime.getTime();
  if (!Number.isFinite(t) || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) {
    throw new RangeError(`motion point ${point.id} has an invalid fix time or coordinate`);
  }
  return { seq, t, lat: point.lat, lng: point.lng };
}

function opened(fix: CoreFix, speedKmh: number): TripCandidate {
  const extent: TripExtent = { end: fix, distanceM: 0, reachM: 0, maxSpeedKmh: speedKmh, drivingS: 0 };
  return { start: fix, anchor: fix, running: extent, moved: extent };
}

function closing(start: CoreFix, extent: TripExtent, reason: TripEndReason, settings: MotionSettings) {
  return { start, extent, reason, kept: qualifiesAsTrip(extent, settings) };
}

/**
 * Applies one point. Pure: the given core is not changed. Points must come in fix-time order (equal times
 * are allowed and carry no derived speed); an earlier point is a caller bug and throws.
 */
export function stepMotion(core: MotionCore, point: MotionPoint, settings: MotionSettings): MotionStep {
  const fix = fixOf(point, core.seq);
  const prev = core.last;
  if (prev && fix.t < prev.t) {
    throw new RangeError(`motion point ${point.id} is older than the previous point`);
  }
  const intervalS = prev ? (fix.t - prev.t) / 1000 : 0;
  const gap = prev !== null && intervalS >= settings.maxGapS;
  const ignition = point.ignition ?? core.ignition;
  const ignitionOff = settings.useIgnition && ignition === false;
  // Across a gap the displacement says nothing about the speed at this point.
  const derived = prev && !gap && intervalS > 0 ? (haversineMetres(prev, fix) / intervalS) * 3.6 : 0;
  const speedKmh = point.speedKmh !== undefined && Number.isFinite(point.speedKmh) ? point.speedKmh : derived;
  const moving = !ignitionOff && speedKmh >= settings.movingSpeedKmh;
  const drivingIntervalS =
    moving && prev?.moving && !gap && intervalS < settings.restDurationS ? intervalS : 0;

  let candidate = core.candidate;
  let closed: ClosedCandidate | null = null;
  if (candidate && gap) {
    closed = closing(candidate.start, candidate.running, 'gap', settings);
    candidate = null;
  }
  if (candidate && prev) {
    const running: TripExtent = {
      end: fix,
      distanceM: candidate.running.distanceM + haversineMetres(prev, fix),
      reachM: Math.max(candidate.running.reachM, haversineMetres(candidate.start, fix)),
      maxSpeedKmh: Math.max(candidate.running.maxSpeedKmh, speedKmh),
      drivingS: candidate.running.drivingS + drivingIntervalS,
    };
    const moved = moving ? running : candidate.moved;
    if (ignitionOff) {
      closed = closing(candidate.start, running, 'ignition', settings);
      candidate = null;
    } else if (haversineMetres(candidate.anchor, fix) > settings.minTripDistanceM) {
      // Left the circle around the anchor: whatever stop was forming there did not happen.
      candidate = { start: candidate.start, anchor: fix, running, moved };
    } else if ((fix.t - candidate.anchor.t) / 1000 >= settings.minStopDurationS) {
      closed = closing(candidate.start, moved, 'stop', settings);
      candidate = null;
    } else {
      candidate = { start: candidate.start, anchor: candidate.anchor, running, moved };
    }
  } else if (!candidate && moving) {
    candidate = opened(fix, speedKmh);
  }

  return {
    core: { seq: core.seq + 1, last: { ...fix, moving }, ignition, candidate },
    speedKmh,
    moving,
    gap,
    intervalS,
    drivingIntervalS,
    closed,
  };
}
