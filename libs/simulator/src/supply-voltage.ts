import type { IncidentSchedule } from './incident-schedule';
import { Random } from './random';
import { STEP_MS } from './time';
import { ALTERNATOR_VOLTS, RESTING_NOISE_VOLTS, VehicleBattery } from './vehicle-battery';

/**
 * The vehicle's supply voltage, as its tracker measures it (`power`): the alternator's while the
 * engine runs, the starter battery's (vehicle-battery.ts) while it is off, the cranking dip at an
 * engine start. Two incidents are the supply's: a slipping alternator belt (a voltage dip) and the
 * loose connector that cuts the tracker's power (0 V).
 */
export class SupplyVoltage {
  private volts = 0;
  /** Seconds since the engine stopped (the surface charge's age), and since it started. */
  private offS = 0;
  private runningS = 0;
  /** The moment of the last engine start, until a report after it has shown the dip. */
  private startedAt?: number;
  private voltageDip = { leftS: 0, volts: 0 };
  private powerCutLeftS = 0;

  /**
   * `random` is the vehicle's generator (the alternator's output), `noise` its measurement noise.
   */
  constructor(
    private readonly battery: VehicleBattery,
    private readonly electric: boolean,
    private readonly random: Random,
    private readonly noise: Random,
  ) {}

  /** On the road at the simulation's start: the engine has run for ten minutes. */
  startRunning(): void {
    this.volts = (ALTERNATOR_VOLTS[0] + ALTERNATOR_VOLTS[1]) / 2;
    this.runningS = 600;
  }

  /** Parked for a while already at the simulation's start (`time`): the battery has settled. */
  startParked(time: number): void {
    this.offS = 3_600;
    this.volts = this.battery.parkedVolts(time, this.offS);
  }

  /** The ignition went on at `time`: the next report (this moment's, or a second later) shows the crank. */
  engineStarted(time: number): void {
    this.startedAt = time;
    // The alternator charges as soon as the engine runs.
    this.volts = this.random.between(...ALTERNATOR_VOLTS);
  }

  /** `seconds` passed until `time`, with the ignition on or off. */
  update(seconds: number, ignition: boolean, time: number): void {
    if (ignition) {
      const charging =
        this.voltageDip.leftS > 0 ? this.voltageDip.volts : this.random.between(...ALTERNATOR_VOLTS);
      this.volts += (charging - this.volts) * Math.min(1, seconds / 5);
      this.offS = 0;
      this.runningS += seconds;
    } else {
      this.runningS = 0;
      // The surface charge fades towards the battery's resting voltage (vehicle-battery.ts).
      this.offS += seconds;
      this.volts = this.battery.parkedVolts(time, this.offS);
    }
    this.voltageDip.leftS = Math.max(0, this.voltageDip.leftS - seconds);
    this.powerCutLeftS = Math.max(0, this.powerCutLeftS - seconds);
  }

  /** The supply's incidents start as soon as they are due and can happen. */
  startIncidents(schedule: IncidentSchedule, ignition: boolean): void {
    // A cut and a dip never overlap: a cut tracker would not see the dip.
    if (schedule.isDue('powerCut') && this.voltageDip.leftS <= 0) {
      this.powerCutLeftS = schedule.between(120, 300);
      schedule.happened('powerCut');
    }
    // Not in the engine's first minute: the cranking dip and the alternator coming up are the start's.
    if (schedule.isDue('voltageDip') && ignition && this.runningS >= 60 && this.powerCutLeftS <= 0) {
      // A slipping alternator belt: the battery alone feeds the vehicle for a while.
      this.voltageDip = {
        leftS: schedule.between(90, 180),
        volts: schedule.between(11.2, 11.65),
      };
      schedule.happened('voltageDip');
    }
  }

  /**
   * The supply voltage a report at `time` shows: 0 while the tracker's power is cut; at the engine
   * start (or a second after it, for a start no report fell on) the cranking dip of a combustion
   * engine; the battery's voltage otherwise, with a tracker's measurement noise while parked.
   */
  reported(time: number, ignition: boolean): number {
    const cranking =
      ignition &&
      !this.electric &&
      this.startedAt !== undefined &&
      // A start shows its cranking dip in the report at its moment or, when no report fell on it, in
      // the report one simulation step later.
      time - this.startedAt <= STEP_MS;
    this.startedAt = undefined;
    if (this.powerCutLeftS > 0) return 0;
    if (cranking) return this.battery.crankingVolts(this.noise);
    return ignition ? this.volts : this.volts + this.noise.between(-RESTING_NOISE_VOLTS, RESTING_NOISE_VOLTS);
  }
}
