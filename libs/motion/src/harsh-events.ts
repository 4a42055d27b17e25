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
 * What the harsh-event measures need of a fix. `course` is not used by the longitudinal measure; it is
 * here for the lateral one (cornering: speed times the rate of turn), so callers keep one sample type.
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
