/**
 * Harsh driving events measured from consecutive fixes, written once for the alert engine's harsh
 * braking and acceleration rules and the safety score, so an alert and a score never disagree about
 * what was harsh. Pure: no I/O, plain numbers.
 */

/** Standard gravity, m/s²: accelerations are given in g. */
export const STANDARD_GRAVITY_MS2 = 9.80665;

/**
 * Longest time between two fixes whose speeds still measure an acceleration, milliseconds. Over a
 * longer gap the speed may have changed several times in between (a stop at a light, then moving on),
 * and the average over the gap says nothing about how hard the driver braked.
 */
export const HARSH_EVENT_MAX_GAP_MS = 5_000;

/**
 * Below this mean speed a course change is not a corner: a GPS heading is noise at walking pace, and a
 * vehicle turning on the spot (manoeuvring in a yard) pulls no lateral g worth scoring.
 */
export const CORNERING_MIN_SPEED_KMH = 10;

/**
 * What the harsh-event measures need of a fix: the longitudinal measure uses the speeds, the lateral
 * one (cornering) the speeds and the courses.
 */
export interface KinematicSample {
  /** Fix time, epoch milliseconds. */
  timeMs: number;
  /** Reported ground speed, km/h; absent when the tracker did not report it. */
  speedKmh?: number;
  /** Heading, degrees clockwise from true north. */
  course?: number;
}

/**
 * The longitudinal acceleration between two consecutive fixes of a vehicle, in g: positive when it
 * speeds up, negative when it brakes (72 → 36 km/h in 2 s is −0.51 g). Undefined when it cannot be
 * measured: a speed is missing, the later fix is not later, or they are more than
 * {@link HARSH_EVENT_MAX_GAP_MS} apart.
 */
export function longitudinalAccelerationG(from: KinematicSample, to: KinematicSample): number | undefined {
  const gapMs = to.timeMs - from.timeMs;
  if (from.speedKmh === undefined || to.speedKmh === undefined) return undefined;
  if (!(gapMs > 0) || gapMs > HARSH_EVENT_MAX_GAP_MS) return undefined;
  const speedChangeMps = (to.speedKmh - from.speedKmh) / 3.6;
  return speedChangeMps / (gapMs / 1000) / STANDARD_GRAVITY_MS2;
}

/** The turn from one heading to another, degrees: the shorter way round, 0–180. */
export function headingChangeDegrees(fromCourse: number, toCourse: number): number {
  const change = Math.abs(toCourse - fromCourse) % 360;
  return change > 180 ? 360 - change : change;
}

/**
 * The lateral (cornering) acceleration between two consecutive fixes of a vehicle, in g, always
 * positive: the mean of the two speeds times the rate of turn (a_lat = v·ω; 90° in 5 s at 45 km/h is
 * 0.40 g). Undefined when it cannot be measured: a speed or a course is missing, the later fix is not
 * later, they are more than {@link HARSH_EVENT_MAX_GAP_MS} apart, or the mean speed is below
 * {@link CORNERING_MIN_SPEED_KMH}.
 */
export function lateralAccelerationG(from: KinematicSample, to: KinematicSample): number | undefined {
  const gapMs = to.timeMs - from.timeMs;
  if (from.speedKmh === undefined || to.speedKmh === undefined) return undefined;
  if (from.course === undefined || to.course === undefined) return undefined;
  if (!(gapMs > 0) || gapMs > HARSH_EVENT_MAX_GAP_MS) return undefined;
  const meanSpeedKmh = (from.speedKmh + to.speedKmh) / 2;
  if (meanSpeedKmh < CORNERING_MIN_SPEED_KMH) return undefined;
  const turnRateRadS = (headingChangeDegrees(from.course, to.course) * Math.PI) / 180 / (gapMs / 1000);
  return ((meanSpeedKmh / 3.6) * turnRateRadS) / STANDARD_GRAVITY_MS2;
}
