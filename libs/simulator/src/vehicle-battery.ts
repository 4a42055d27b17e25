import { DAY_MS } from './time';
import { Random } from './random';

/**
 * The 12 V starter battery of a simulated vehicle, as a tracker's supply voltage (`power`) shows it.
 * Reference points of a lead-acid battery (what the battery-health insight reads, docs/insights.md):
 * at rest, once the surface charge has gone, about 12.6 V full, 12.2 V half, 12.0 V a quarter; while
 * the engine cranks a healthy battery stays above 10 V, a failing one dips below 9.6 V; running, the
 * alternator holds 13.6–14.2 V.
 */

/** Resting voltage of a sound battery, drawn once per vehicle: full, and stable from day to day. */
export const HEALTHY_RESTING_VOLTS: readonly [number, number] = [12.55, 12.7];
/**
 * The weakening battery (VehicleTraits.weakeningBattery) rests at this voltage at the simulation's
 * start ("today" of a demo) and loses WEAKENING_VOLTS_PER_DAY a day, before and after: half charged,
 * about 12 days from the 12.0 V a quarter charge reads.
 */
export const WEAKENING_RESTING_VOLTS = 12.25;
export const WEAKENING_VOLTS_PER_DAY = 0.02;
/** The dip of the report at an engine start: a sound battery, and the weakening one. */
export const CRANKING_VOLTS: readonly [number, number] = [10.0, 11.0];
export const WEAK_CRANKING_VOLTS: readonly [number, number] = [9.2, 9.8];
export const ALTERNATOR_VOLTS: readonly [number, number] = [13.6, 14.2];
/**
 * Right after the engine stops the battery reads higher than at rest (the surface charge the
 * alternator left), settling exponentially with this time constant: 15 minutes after the engine
 * stopped, when the insights take a voltage as a resting one, less than 0.01 V of it is left.
 */
export const SURFACE_CHARGE_VOLTS = 0.35;
export const SURFACE_CHARGE_SECONDS = 180;
/** Noise of a resting reading (the tracker's measurement), ± volts. */
export const RESTING_NOISE_VOLTS = 0.01;

export class VehicleBattery {
  /** Resting voltage at `since`. */
  private readonly restingAtStart: number;

  /**
   * `soundRestingVolts` is the resting voltage of a sound battery (drawn from HEALTHY_RESTING_VOLTS per
   * vehicle); a weakening one rests at WEAKENING_RESTING_VOLTS at `since`, the simulation's start.
   */
  constructor(
    soundRestingVolts: number,
    readonly weakening: boolean,
    private readonly since: number,
  ) {
    this.restingAtStart = weakening ? WEAKENING_RESTING_VOLTS : soundRestingVolts;
  }

  /** The settled resting voltage at `time` (Unix ms, before the start too): declining, if weakening. */
  restingVolts(time: number): number {
    if (!this.weakening) return this.restingAtStart;
    return this.restingAtStart - (WEAKENING_VOLTS_PER_DAY * (time - this.since)) / DAY_MS;
  }

  /** The voltage `offSeconds` after the engine stopped, at `time`, without measurement noise. */
  parkedVolts(time: number, offSeconds: number): number {
    return (
      this.restingVolts(time) +
      SURFACE_CHARGE_VOLTS * Math.exp(-Math.max(0, offSeconds) / SURFACE_CHARGE_SECONDS)
    );
  }

  /** The lowest voltage while the starter turns (the report at an engine start). */
  crankingVolts(noise: Random): number {
    return noise.between(...(this.weakening ? WEAK_CRANKING_VOLTS : CRANKING_VOLTS));
  }
}
