import { haversineMetres } from '@fleet/geo';
import {
  detectDrivingEvents,
  DrivingEventObservation,
  DrivingEventState,
  IDLE_MAX_SPEED_KMH,
  KinematicSample,
  NO_DRIVING_EVENTS,
  SPEEDING_LIMIT_KMH,
} from '@fleet/motion';

/**
 * What the insights take from each fix as positions are projected (docs/insights.md): the pair it
 * closes with the vehicle's previous fix (distance, driving, speeding and idle time, driving events),
 * and its voltage as a resting or cranking sample. Pure: the projection stores the state with the last
 * position and adds the figures to `vehicle_activity` per quarter hour.
 */

/** The ignition has been off this long before a voltage is a resting one (the surface charge is gone). */
export const REST_SETTLE_MS = 15 * 60_000;
/** Fixes this long after an engine start still show its cranking dip. */
export const CRANK_WINDOW_MS = 30_000;
/** Two fixes further apart than this share no distance or time: the signal was lost in between. */
export const ACTIVITY_MAX_GAP_MS = 5 * 60_000;
/** Supply voltages outside (5, 32] V are not a battery's: 0 V is a cut tracker, more is a bad reading. */
export const MIN_BATTERY_VOLTS = 5;
export const MAX_BATTERY_VOLTS = 32;
/**
 * A code the vehicle's reports have not listed for this much engine running time is no longer active:
 * an OBD tracker reads the codes every few minutes while the engine runs, and a parked vehicle (no
 * reading at all) keeps its codes as they were.
 */
export const ENGINE_CODE_INACTIVE_AFTER_MINUTES = 20;
/** The unit `vehicle_activity` sums by: every time zone's midnight falls on a quarter hour. */
export const QUARTER_MS = 15 * 60_000;

/**
 * The shape of an SAE J2012 / ISO 15031-6 trouble code: system letter, then four hex digits with the
 * second character 0–3. Anything else a tracker sends in `dtcs` is not kept (docs/insights.md).
 */
export const TROUBLE_CODE = /^[PCBU][0-3][0-9A-F]{3}$/;

/** One fix as the insights read it. */
export interface InsightFix {
  /** Fix time, epoch ms. */
  timeMs: number;
  lat: number;
  lng: number;
  speedKmh?: number;
  course?: number;
  ignition?: boolean;
  powerV?: number;
  dtcCodes?: string[];
}

/** What the next fix is judged against. Stored as JSON in `last_positions.insight_state`. */
export interface InsightState {
  previous?: { timeMs: number; lat: number; lng: number; speedKmh?: number; course?: number };
  /** The last reported ignition (a fix without it keeps it). */
  ignition?: boolean;
  /** Fix time of the first ignition-off fix of the current rest. */
  offSince?: number;
  /** The latest battery voltage while the ignition was off: what a cranking dip is measured against. */
  lastOffV?: number;
  /** The engine start whose cranking window is open: its fix time and the voltage before it. */
  start?: { timeMs: number; beforeV?: number };
  events?: DrivingEventState;
  /**
   * Engine running seconds so far (pairs of fixes with the ignition on at both ends, at most
   * ACTIVITY_MAX_GAP_MS apart): the clock engine codes go inactive by.
   */
  engineClockS?: number;
  /** The vehicle's active engine codes and the engine clock when each was last reported; V1's `DTC`. */
  activeCodes?: Record<string, number>;
}

/** What one fix adds to its quarter hour of `vehicle_activity`. */
export interface ActivityFigures {
  distanceM: number;
  drivingS: number;
  speedingS: number;
  idleS: number;
  restCount: number;
  restSumV: number;
  /** The latest resting sample. */
  restLast?: { volts: number; timeMs: number };
  crankCount: number;
  crankMinV?: number;
  starts: number;
}

export const NO_ACTIVITY: Readonly<ActivityFigures> = Object.freeze({
  distanceM: 0,
  drivingS: 0,
  speedingS: 0,
  idleS: 0,
  restCount: 0,
  restSumV: 0,
  crankCount: 0,
  starts: 0,
});

export const quarterOf = (timeMs: number): number => Math.floor(timeMs / QUARTER_MS) * QUARTER_MS;

const batteryVolts = (volts: number | undefined): number | undefined =>
  volts !== undefined && volts > MIN_BATTERY_VOLTS && volts <= MAX_BATTERY_VOLTS ? volts : undefined;

/** Adds `more` to `figures` (a fix's figures to its quarter's). */
export function addActivity(figures: ActivityFigures, more: ActivityFigures): ActivityFigures {
  const restLast =
    !figures.restLast || (more.restLast && more.restLast.timeMs >= figures.restLast.timeMs)
      ? (more.restLast ?? figures.restLast)
      : figures.restLast;
  const crankMins = [figures.crankMinV, more.crankMinV].filter(
    (volts): volts is number => volts !== undefined,
  );
  return {
    distanceM: figures.distanceM + more.distanceM,
    drivingS: figures.drivingS + more.drivingS,
    speedingS: figures.speedingS + more.speedingS,
    idleS: figures.idleS + more.idleS,
    restCount: figures.restCount + more.restCount,
    restSumV: figures.restSumV + more.restSumV,
    restLast,
    crankCount: figures.crankCount + more.crankCount,
    crankMinV: crankMins.length ? Math.min(...crankMins) : undefined,
    starts: figures.starts + more.starts,
  };
}

/**
 * The pair of consecutive fixes `previous` → `fix`: driving when either reported speed (else the speed
 * of the displacement) reaches `movingSpeedKmh`; its distance and duration then count as driving, and
 * the share of its duration over the speeding limit (half for each end above it) as speeding. Standing
 * with the ignition on at both ends (below IDLE_MAX_SPEED_KMH) is idling.
 */
function pairFigures(
  previous: NonNullable<InsightState['previous']>,
  fix: InsightFix,
  ignitionOn: boolean,
  movingSpeedKmh: number,
): Pick<ActivityFigures, 'distanceM' | 'drivingS' | 'speedingS' | 'idleS'> {
  const none = { distanceM: 0, drivingS: 0, speedingS: 0, idleS: 0 };
  const gapMs = fix.timeMs - previous.timeMs;
  if (!(gapMs > 0) || gapMs > ACTIVITY_MAX_GAP_MS) return none;
  const seconds = gapMs / 1000;
  const distanceM = haversineMetres(previous, fix);
  const reported = [previous.speedKmh, fix.speedKmh].filter((speed): speed is number => speed !== undefined);
  const speedKmh = reported.length === 2 ? Math.max(...reported) : (distanceM / seconds) * 3.6;
  if (speedKmh >= movingSpeedKmh) {
    const over = reported.filter((speed) => speed > SPEEDING_LIMIT_KMH).length;
    return { distanceM, drivingS: seconds, speedingS: (seconds * over) / 2, idleS: 0 };
  }
  return ignitionOn && speedKmh < IDLE_MAX_SPEED_KMH ? { ...none, idleS: seconds } : none;
}

/**
 * The insights of one fix, newer than every fix the state has seen: the figures it adds to its quarter
 * hour, the driving events it observes, and the state after it.
 */
export function advanceInsights(
  state: InsightState,
  fix: InsightFix,
  movingSpeedKmh: number,
): { state: InsightState; figures: ActivityFigures; events: DrivingEventObservation[] } {
  const next: InsightState = { ...state };
  const wasOn = state.ignition;
  const ignition = fix.ignition ?? state.ignition;
  const volts = batteryVolts(fix.powerV);
  let figures: ActivityFigures = { ...NO_ACTIVITY };

  if (state.previous) {
    figures = {
      ...figures,
      ...pairFigures(state.previous, fix, wasOn === true && ignition === true, movingSpeedKmh),
    };
  }
  const sample: KinematicSample = { timeMs: fix.timeMs, speedKmh: fix.speedKmh, course: fix.course };
  const previousSample = state.previous && {
    timeMs: state.previous.timeMs,
    speedKmh: state.previous.speedKmh,
    course: state.previous.course,
  };
  const detected = detectDrivingEvents(state.events ?? NO_DRIVING_EVENTS, previousSample, sample);
  next.events = detected.state;

  if (ignition === false) {
    if (wasOn !== false) next.offSince = fix.timeMs;
    if (volts !== undefined) {
      next.lastOffV = volts;
      if (fix.timeMs - (next.offSince ?? fix.timeMs) >= REST_SETTLE_MS) {
        figures = { ...figures, restCount: 1, restSumV: volts, restLast: { volts, timeMs: fix.timeMs } };
      }
    }
    delete next.start;
  } else if (ignition === true) {
    delete next.offSince;
    if (wasOn === false) {
      next.start = { timeMs: fix.timeMs, beforeV: state.lastOffV };
      figures = { ...figures, starts: 1 };
    }
    const start = next.start;
    if (start && fix.timeMs - start.timeMs <= CRANK_WINDOW_MS) {
      if (volts !== undefined && start.beforeV !== undefined && volts < start.beforeV) {
        figures = { ...figures, crankCount: 1, crankMinV: volts };
      }
    } else {
      delete next.start;
    }
  }

  const running = state.previous && wasOn === true && ignition === true;
  const runningMs = running ? fix.timeMs - state.previous!.timeMs : 0;
  if (runningMs > 0 && runningMs <= ACTIVITY_MAX_GAP_MS)
    next.engineClockS = (state.engineClockS ?? 0) + runningMs / 1000;
  next.activeCodes = activeCodesAfter(state.activeCodes, fix, next.engineClockS ?? 0);
  if (!Object.keys(next.activeCodes).length) delete next.activeCodes;
  if (fix.ignition !== undefined) next.ignition = fix.ignition;
  next.previous = { timeMs: fix.timeMs, lat: fix.lat, lng: fix.lng };
  if (fix.speedKmh !== undefined) next.previous.speedKmh = fix.speedKmh;
  if (fix.course !== undefined) next.previous.course = fix.course;
  return { state: next, figures, events: detected.events };
}

/** The codes still active after `fix`: its own, and those seen within the window of the engine clock. */
function activeCodesAfter(
  before: Record<string, number> | undefined,
  fix: InsightFix,
  engineClockS: number,
): Record<string, number> {
  const codes: Record<string, number> = { ...before };
  for (const code of fix.dtcCodes ?? []) if (TROUBLE_CODE.test(code)) codes[code] = engineClockS;
  for (const [code, seenAtS] of Object.entries(codes)) {
    if (engineClockS - seenAtS > ENGINE_CODE_INACTIVE_AFTER_MINUTES * 60) delete codes[code];
  }
  return codes;
}
