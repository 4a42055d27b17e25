import { DrivingEventKind, DrivingEventSeverity } from '@fleet/motion';

/**
 * The safety score method (docs/insights.md, Safety score), in the style fleets know from Samsara: start
 * at 100, subtract points for harsh events per distance driven and for the share of driving time
 * spent over the speeding limit. Pure: the service reads the figures per local day, this weighs them.
 */

/** A local day counts towards the score once the vehicle drove this far in it (yard moves don't). */
export const MIN_SCORED_DAY_DISTANCE_KM = 1;

/**
 * Weight of one harsh event, by kind: braking and cornering weigh twice an acceleration, being the
 * manoeuvres that most often precede a collision. A severe event weighs {@link SEVERE_EVENT_FACTOR} times.
 */
export const EVENT_WEIGHTS: Readonly<Record<Exclude<DrivingEventKind, 'speeding'>, number>> = Object.freeze({
  harshBraking: 2,
  harshCornering: 2,
  harshAcceleration: 1,
});
export const SEVERE_EVENT_FACTOR = 2;

/** Points subtracted per weighted event per 100 km. */
export const POINTS_PER_WEIGHTED_EVENT_PER_100_KM = 5;

/**
 * The event rate is taken over at least this distance, km, so that one event on a short day does not
 * sink the score (1 event in 5 km is not a rate of 20 per 100 km).
 */
export const MIN_RATE_DISTANCE_KM = 100;

/** Points subtracted per percent of driving time over the speeding limit. */
export const POINTS_PER_SPEEDING_PERCENT = 1;

/** What one local day of the window holds. */
export interface ScoreDay {
  /** The local date, `yyyy-MM-dd`. */
  day: string;
  distanceM: number;
  drivingS: number;
  speedingS: number;
  idleS: number;
  events: { kind: DrivingEventKind; severity: DrivingEventSeverity; count: number }[];
}

export interface SafetyScoreResult {
  /** 0–100; null when no day of the window counts (no driving to judge). */
  score: number | null;
  distanceKm: number;
  drivingSeconds: number;
  idleSeconds: number;
  speedingSeconds: number;
  harshBrakingCount: number;
  harshAccelerationCount: number;
  harshCorneringCount: number;
  speedingCount: number;
  severeEventCount: number;
  /** What the score was computed from: the days that count, and their distance. */
  scoredDays: number;
  scoredDistanceKm: number;
  /** Weighted harsh events per 100 km of the scored days (over at least MIN_RATE_DISTANCE_KM). */
  weightedEventsPer100Km: number;
  /** Percent of the scored days' driving time over the speeding limit. */
  speedingPercent: number;
  harshEventPenalty: number;
  speedingPenalty: number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function scoreDays(days: readonly ScoreDay[]): SafetyScoreResult {
  const counts = { harshBraking: 0, harshAcceleration: 0, harshCornering: 0, speeding: 0 };
  let severe = 0;
  let scoredDays = 0;
  let scoredDistanceM = 0;
  let scoredDrivingS = 0;
  let scoredSpeedingS = 0;
  let weighted = 0;
  for (const day of days) {
    for (const event of day.events) {
      counts[event.kind] += event.count;
      if (event.severity === 'severe') severe += event.count;
    }
    if (day.distanceM < MIN_SCORED_DAY_DISTANCE_KM * 1000) continue;
    scoredDays += 1;
    scoredDistanceM += day.distanceM;
    scoredDrivingS += day.drivingS;
    scoredSpeedingS += day.speedingS;
    for (const event of day.events) {
      if (event.kind === 'speeding') continue;
      const factor = event.severity === 'severe' ? SEVERE_EVENT_FACTOR : 1;
      weighted += EVENT_WEIGHTS[event.kind] * factor * event.count;
    }
  }
  const rate = weighted / (Math.max(scoredDistanceM / 1000, MIN_RATE_DISTANCE_KM) / 100);
  const speedingPercent = scoredDrivingS > 0 ? (100 * scoredSpeedingS) / scoredDrivingS : 0;
  const harshEventPenalty = rate * POINTS_PER_WEIGHTED_EVENT_PER_100_KM;
  const speedingPenalty = speedingPercent * POINTS_PER_SPEEDING_PERCENT;
  const sum = (pick: (day: ScoreDay) => number) => days.reduce((total, day) => total + pick(day), 0);
  return {
    score:
      scoredDays === 0
        ? null
        : Math.max(0, Math.min(100, Math.round(100 - harshEventPenalty - speedingPenalty))),
    distanceKm: round(sum((day) => day.distanceM) / 1000, 2),
    drivingSeconds: Math.round(sum((day) => day.drivingS)),
    idleSeconds: Math.round(sum((day) => day.idleS)),
    speedingSeconds: Math.round(sum((day) => day.speedingS)),
    harshBrakingCount: counts.harshBraking,
    harshAccelerationCount: counts.harshAcceleration,
    harshCorneringCount: counts.harshCornering,
    speedingCount: counts.speeding,
    severeEventCount: severe,
    scoredDays,
    scoredDistanceKm: round(scoredDistanceM / 1000, 2),
    weightedEventsPer100Km: round(rate, 2),
    speedingPercent: round(speedingPercent, 2),
    harshEventPenalty: round(harshEventPenalty, 2),
    speedingPenalty: round(speedingPenalty, 2),
  };
}
