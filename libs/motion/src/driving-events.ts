/**
 * Driving events of one vehicle, judged fix by fix: harsh braking, harsh acceleration, harsh cornering
 * and speeding episodes. Written once for the alert engine's harsh and overspeed rules and the safety
 * score (docs/insights.md, Driving events), so that a harsh-braking alert and the score never disagree
 * about what was harsh. Pure: no I/O, plain numbers.
 */
import { KinematicSample, lateralAccelerationG, longitudinalAccelerationG } from './harsh-events';

export type HarshKind = 'harshBraking' | 'harshAcceleration' | 'harshCornering';
export type DrivingEventKind = HarshKind | 'speeding';
export type DrivingEventSeverity = 'moderate' | 'severe';

export const HARSH_KINDS: readonly HarshKind[] = ['harshBraking', 'harshAcceleration', 'harshCornering'];

/**
 * Where a manoeuvre becomes harsh, g. Braking and acceleration are the defaults of the alert types 12
 * and 13 (a test in the alert engine keeps them equal); cornering has no alert type and takes braking's
 * value, the usual light-vehicle figure for both.
 */
export const HARSH_THRESHOLDS_G: Readonly<Record<HarshKind, number>> = Object.freeze({
  harshBraking: 0.4,
  harshAcceleration: 0.3,
  harshCornering: 0.4,
});

/** A harsh event is severe at this multiple of its threshold (braking from 0.6 g, acceleration from 0.45 g). */
export const SEVERE_HARSH_FACTOR = 1.5;

/** Speeding is driving above this speed, km/h: the overspeed alert type's default maximum. */
export const SPEEDING_LIMIT_KMH = 100;

/**
 * A speeding episode ends only at this far below the limit or slower, km/h, so a vehicle cruising at the
 * limit makes one episode, not one per report (the overspeed alert re-arms the same way).
 */
export const SPEEDING_REARM_MARGIN_KMH = 5;

/** A speeding episode is severe once it reaches this far above the limit, km/h. */
export const SEVERE_SPEEDING_MARGIN_KMH = 20;

/** Below this speed a vehicle with the ignition on is standing (idling), km/h. */
export const IDLE_MAX_SPEED_KMH = 3;

/** How harsh a manoeuvre of `kind` was between two fixes, in g (undefined when it cannot be measured). */
export function harshStrengthG(
  kind: HarshKind,
  from: KinematicSample,
  to: KinematicSample,
): number | undefined {
  if (kind === 'harshCornering') return lateralAccelerationG(from, to);
  const acceleration = longitudinalAccelerationG(from, to);
  if (acceleration === undefined) return undefined;
  return kind === 'harshBraking' ? -acceleration : acceleration;
}

/** What the detection remembers between fixes (small, JSON-safe: it is stored with the last position). */
export interface DrivingEventState {
  /** The harsh kinds whose episode is open (the last measurable pair was at or above the threshold). */
  harsh: { kind: HarshKind; since: number }[];
  /** The open speeding episode: its first fix time (epoch ms). */
  speedingSince?: number;
}

export const NO_DRIVING_EVENTS: DrivingEventState = Object.freeze({ harsh: [] }) as DrivingEventState;

/**
 * One observation of an event. Every pair inside an episode reports it again with the episode's start
 * time as `at`, so a store keyed by (vehicle, `at`, kind) keeps one row per episode and folds in the
 * strongest `peak`.
 */
export interface DrivingEventObservation {
  kind: DrivingEventKind;
  /** The episode's first fix time, epoch ms: the event's identity and when it happened. */
  at: number;
  /** g for harsh events (positive), km/h for speeding. */
  peak: number;
  severity: DrivingEventSeverity;
  /** The speed at the fix that observed it, km/h. */
  speedKmh?: number;
}

export function harshSeverity(kind: HarshKind, strengthG: number): DrivingEventSeverity {
  return strengthG >= HARSH_THRESHOLDS_G[kind] * SEVERE_HARSH_FACTOR ? 'severe' : 'moderate';
}

export function speedingSeverity(speedKmh: number): DrivingEventSeverity {
  return speedKmh >= SPEEDING_LIMIT_KMH + SEVERE_SPEEDING_MARGIN_KMH ? 'severe' : 'moderate';
}

/**
 * The events a fix shows, given the vehicle's previous fix (undefined for its first), and the state
 * after it. Harsh: an episode opens at the first pair at or above the threshold and closes at the
 * next measurable pair below it; a pair that cannot be measured (a speed or course missing, fixes more
 * than 5 s apart) changes nothing, exactly as the alert engine's harsh rules latch. Speeding: opens at
 * the first fix above the limit, closes at a fix at or below the limit minus the re-arm margin; a fix
 * without a speed changes nothing.
 */
export function detectDrivingEvents(
  state: DrivingEventState,
  previous: KinematicSample | undefined,
  fix: KinematicSample,
): { state: DrivingEventState; events: DrivingEventObservation[] } {
  const events: DrivingEventObservation[] = [];
  const harsh: DrivingEventState['harsh'] = [];
  for (const kind of HARSH_KINDS) {
    const open = state.harsh.find((episode) => episode.kind === kind);
    const strength = previous ? harshStrengthG(kind, previous, fix) : undefined;
    if (strength === undefined) {
      if (open) harsh.push(open);
    } else if (strength >= HARSH_THRESHOLDS_G[kind]) {
      const since = open?.since ?? fix.timeMs;
      harsh.push({ kind, since });
      events.push({
        kind,
        at: since,
        peak: strength,
        severity: harshSeverity(kind, strength),
        speedKmh: fix.speedKmh,
      });
    }
  }
  let speedingSince = state.speedingSince;
  const speed = fix.speedKmh;
  if (speed !== undefined) {
    if (speed > SPEEDING_LIMIT_KMH) {
      speedingSince ??= fix.timeMs;
      events.push({
        kind: 'speeding',
        at: speedingSince,
        peak: speed,
        severity: speedingSeverity(speed),
        speedKmh: speed,
      });
    } else if (speed <= SPEEDING_LIMIT_KMH - SPEEDING_REARM_MARGIN_KMH) {
      speedingSince = undefined;
    }
  }
  const next: DrivingEventState = { harsh };
  if (speedingSince !== undefined) next.speedingSince = speedingSince;
  return { state: next, events };
}
