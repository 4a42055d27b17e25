import type { IncidentSchedule } from './incident-schedule';

const G = 9.81; // m/s²
/**
 * A harsh manoeuvre changes the speed by 0.5 g or more for five seconds (or until standing): two fixes
 * up to 5 s apart then differ by at least 0.45 g, the margin above the alert types' defaults.
 */
const HARSH_ACCELERATION = 0.52 * G;
const HARSH_ACCELERATION_S = 5;
const EMERGENCY_BRAKING = 0.85 * G;
/** An emergency stop starts from at least this speed: from it, standing 5 s later is 0.48 g. */
const EMERGENCY_STOP_FROM = 85 / 3.6;
/** Before a due emergency stop the driver hurries on arterials, fast enough for it to count as harsh. */
const HURRY_BEFORE_STOP = 92 / 3.6;
/** No van goes faster, whatever the driver. */
export const TOP_SPEED = 114 / 3.6;
const SPEEDING_KMH = 100;
/** A speeding episode ends after this long above SPEEDING_KMH in one stretch (room for a minimum-duration setting). */
const SPEEDING_EPISODE_S = 12;

/**
 * The driving incidents that are about speed, all of them on arterial roads: speeding, harsh braking
 * (an emergency stop) and harsh acceleration (from a standstill). A harsh manoeuvre starts right after
 * a report, so that the next report (at most 5 s later for the harsh-driving rules to judge it) sees
 * the whole change of speed, whatever the report interval; standing still ends it.
 */
export class SpeedIncidents {
  /** The speed of a speeding episode under way. */
  private speedingKmh?: number;
  private speedingAboveS = 0;
  private boostLeftS = 0;
  private emergencyStop = false;

  constructor(private readonly schedule: IncidentSchedule) {}

  /** Under way with a harsh acceleration. */
  get boosting(): boolean {
    return this.boostLeftS > 0;
  }

  /** An emergency stop is under way. */
  get stopping(): boolean {
    return this.emergencyStop;
  }

  /** A harsh manoeuvre sets the speed (speedAfter) instead of the driver. */
  get underWay(): boolean {
    return this.emergencyStop || this.boostLeftS > 0;
  }

  /** Speeding and harsh driving happen on arterial roads: a vehicle due for one takes a long route. */
  get wantArterial(): boolean {
    return (
      this.schedule.isDue('speeding') ||
      this.schedule.isDue('harshBraking') ||
      this.schedule.isDue('harshAcceleration')
    );
  }

  /** The speeding episode, once due: the driver goes that fast on the next arterials. */
  startSpeeding(): void {
    if (this.schedule.isDue('speeding') && this.speedingKmh === undefined) {
      this.speedingKmh = this.schedule.between(106, 112);
      this.speedingAboveS = 0;
    }
  }

  /** A harsh acceleration, right after a report (the standstill before it was held for one). */
  startBoost(): void {
    this.boostLeftS = HARSH_ACCELERATION_S;
    this.schedule.happened('harshAcceleration');
  }

  /**
   * Right after a report, driving at `speedMs` (the engine free): an emergency stop, once due and fast
   * enough, unless a harsh corner is ahead or under way (`cornerPending`).
   */
  brakeIfDue(speedMs: number, cornerPending: boolean): void {
    if (
      this.schedule.isDue('harshBraking') &&
      this.boostLeftS <= 0 &&
      // A harsh corner ahead or under way is taken first.
      !cornerPending &&
      // A speeding episode runs its course first: then the stop is from its speed.
      this.speedingKmh === undefined &&
      speedMs >= EMERGENCY_STOP_FROM
    ) {
      this.emergencyStop = true;
      this.schedule.happened('harshBraking');
    }
  }

  /** Standing still ends any harsh manoeuvre (a red light reached while braking hard, say). */
  end(): void {
    this.emergencyStop = false;
    this.boostLeftS = 0;
  }

  /** The cruise speed on an arterial road: the driver's `cruise`, or faster when an incident wants it. */
  arterialCruise(cruise: number): number {
    if (this.speedingKmh !== undefined) cruise = Math.max(cruise, this.speedingKmh / 3.6);
    if (this.schedule.isDue('harshBraking')) cruise = Math.max(cruise, HURRY_BEFORE_STOP);
    return cruise;
  }

  /** The speed `seconds` later, from `speedMs`, of the harsh manoeuvre under way. */
  speedAfter(speedMs: number, seconds: number): number {
    if (this.emergencyStop) return Math.max(0, speedMs - EMERGENCY_BRAKING * seconds);
    this.boostLeftS -= seconds;
    return Math.min(TOP_SPEED, speedMs + HARSH_ACCELERATION * seconds);
  }

  /** Drove `seconds` at `speedMs`: the episode is over once above the limit long enough in one stretch. */
  countSpeeding(speedMs: number, seconds: number): void {
    if (this.speedingKmh === undefined) return;
    if (speedMs * 3.6 <= SPEEDING_KMH) {
      this.speedingAboveS = 0;
      return;
    }
    this.speedingAboveS += seconds;
    if (this.speedingAboveS >= SPEEDING_EPISODE_S) {
      this.speedingKmh = undefined;
      this.schedule.happened('speeding');
    }
  }
}
