import type { IncidentSchedule } from './incident-schedule';
import { Random } from './random';

export const COOLANT_RUNNING_C = 90;
export const AMBIENT_C = 15;
const MAX_NORMAL_RPM = 3_900;

/**
 * A vehicle's engine as its tracker reads it: the hours it has run (an electric motor's too), and a
 * combustion engine's coolant temperature and engine speed, with the two incidents that are the
 * engine's: a high engine speed (held in a low gear) and overheating.
 */
export class Engine {
  private runHours: number;
  private coolant: number;
  private highRpm = { leftS: 0, rpm: 0 };
  private overheat = { leftS: 0, targetC: 0 };

  constructor(
    private readonly electric: boolean,
    hours: number,
    coolantC: number,
  ) {
    this.runHours = hours;
    this.coolant = coolantC;
  }

  get hours(): number {
    return this.runHours;
  }

  get coolantC(): number {
    return this.coolant;
  }

  /**
   * `seconds` passed with the ignition on or off: the hours count while it is on; coolant warms to
   * its running temperature in a few minutes and cools towards the air's when off.
   */
  update(seconds: number, ignition: boolean): void {
    if (ignition) this.runHours += seconds / 3600;
    if (this.electric) return;
    if (ignition) {
      const target = this.overheat.leftS > 0 ? this.overheat.targetC : COOLANT_RUNNING_C;
      const rate = this.coolant < target ? 0.25 : 0.08; // °C/s
      const change = Math.min(Math.abs(target - this.coolant), rate * seconds);
      this.coolant += Math.sign(target - this.coolant) * change;
    } else {
      this.coolant += (AMBIENT_C - this.coolant) * (1 - Math.exp(-seconds / 2_400));
    }
    this.overheat.leftS = Math.max(0, this.overheat.leftS - seconds);
    this.highRpm.leftS = Math.max(0, this.highRpm.leftS - seconds);
  }

  /**
   * The engine's incidents start as soon as they are due and can happen: a high engine speed while
   * driving faster than 30 km/h (`drivingMs` is 0 unless the vehicle is driving), overheating once
   * the engine is warm.
   */
  startIncidents(schedule: IncidentSchedule, ignition: boolean, drivingMs: number): void {
    if (schedule.isDue('highRpm') && drivingMs > 30 / 3.6) {
      // Held in a low gear.
      this.highRpm = { leftS: schedule.between(20, 40), rpm: schedule.between(4_300, 5_200) };
      schedule.happened('highRpm');
    }
    if (schedule.isDue('overheat') && ignition && this.coolant > 85) {
      this.overheat = { leftS: schedule.between(240, 360), targetC: schedule.between(109, 114) };
      schedule.happened('overheat');
    }
  }

  /** The engine speed now, at `speedMs`, `boosting` through a harsh acceleration (with noise). */
  rpm(noise: Random, speedMs: number, boosting: boolean): number {
    if (this.highRpm.leftS > 0) return this.highRpm.rpm + noise.between(-60, 60);
    if (boosting) return noise.between(3_500, 3_850);
    if (speedMs === 0) return noise.between(720, 820);
    return Math.min(MAX_NORMAL_RPM, 1_000 + 22 * speedMs * 3.6 + noise.between(-60, 60));
  }
}
