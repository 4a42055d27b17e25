import {
  ClosedCandidate,
  CoreFix,
  initialMotionCore,
  MotionCore,
  qualifiesAsTrip,
  stepMotion,
  TripExtent,
} from '../motion-core';
import { MotionPoint } from '../motion-point';
import { MotionSettings, resolveMotionSettings } from '../settings';

export interface Trip {
  /** Index of the first point among all points pushed (for {@link detectTrips}: in the input array). */
  startIndex: number;
  endIndex: number;
  /** The points from start to end, both included. */
  points: MotionPoint[];
  startTime: Date;
  endTime: Date;
  /** Haversine sum along the points. */
  distanceM: number;
  durationS: number;
  /** Highest speed among the points, reported or derived. */
  maxSpeedKmh: number;
  /** False when the trip is still ongoing at the last point (only {@link TripDetector.flush} returns those). */
  complete: boolean;
}

/**
 * Detects trips in a stream of one vehicle's points. It holds only the points of the motion in progress,
 * so it can run over a long history or a live feed.
 */
export class TripDetector {
  private readonly settings: MotionSettings;
  private core: MotionCore = initialMotionCore();
  /** Points from the current candidate's start on; empty while the vehicle is not in motion. */
  private buffer: MotionPoint[] = [];

  constructor(settings?: Partial<MotionSettings>) {
    this.settings = resolveMotionSettings(settings);
  }

  /** Applies the next point (not older than the previous one) and returns the trips it completed (0 or 1). */
  push(point: MotionPoint): Trip[] {
    const seq = this.core.seq;
    const inMotion = this.core.candidate !== null;
    const step = stepMotion(this.core, point, this.settings);
    this.core = step.core;
    if (inMotion) this.buffer.push(point);
    const trips = step.closed?.kept ? [this.tripOf(this.buffer, step.closed, true)] : [];
    const candidate = step.core.candidate;
    if (!candidate) this.buffer = [];
    else if (candidate.start.seq === seq) this.buffer = [point];
    return trips;
  }

  /**
   * Ends the input: returns the trip still in progress (`complete: false`, ending at its last moving
   * point) if it already counts as one, and starts over as if no point had been seen. Indices keep counting.
   */
  flush(): Trip[] {
    const candidate = this.core.candidate;
    const trips =
      candidate && qualifiesAsTrip(candidate.moved, this.settings)
        ? [this.tripOf(this.buffer, { start: candidate.start, extent: candidate.moved }, false)]
        : [];
    this.core = initialMotionCore(this.core.seq);
    this.buffer = [];
    return trips;
  }

  /** `seen` starts at the candidate's first point and runs at least to the trip's end. */
  private tripOf(
    seen: readonly MotionPoint[],
    closed: Pick<ClosedCandidate, 'start' | 'extent'>,
    complete: boolean,
  ): Trip {
    const start: CoreFix = closed.start;
    const extent: TripExtent = closed.extent;
    const points = seen.slice(0, extent.end.seq - start.seq + 1);
    return {
      startIndex: start.seq,
      endIndex: extent.end.seq,
      points,
      startTime: new Date(start.t),
      endTime: new Date(extent.end.t),
      distanceM: extent.distanceM,
      durationS: (extent.end.t - start.t) / 1000,
      maxSpeedKmh: extent.maxSpeedKmh,
      complete,
    };
  }
}

/** All trips of one vehicle's points (sorted by fix time), the last one `complete: false` if still ongoing. */
export function detectTrips(points: readonly MotionPoint[], settings?: Partial<MotionSettings>): Trip[] {
  const detector = new TripDetector(settings);
  const trips = points.flatMap((point) => detector.push(point));
  return [...trips, ...detector.flush()];
}
