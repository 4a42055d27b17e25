import { RoadNetwork } from './road-network';
import { SimulatedReport } from './simulated-report';

/**
 * The limits the conditions below are judged by: the alert catalog's defaults
 * (libs/contracts/src/alerts/alert-types.ts), except harsh driving, judged at 0.45 g, above both
 * defaults (0.4 g braking, 0.3 g acceleration) with a margin.
 */
export const CONDITION_LIMITS: ConditionLimits = {
  maxSpeedKmh: 100,
  speedingSeconds: 10,
  harshG: 0.45,
  harshWithinSeconds: 5,
  idleSeconds: 300,
  lowVoltageV: 11.8,
  lowVoltageRearmV: 12.1,
  powerCutV: 1,
  maxRpm: 4_000,
  maxCoolantC: 105,
};

export interface ConditionLimits {
  maxSpeedKmh: number;
  /** How long the speed must stay above the maximum (a configuration's `minDurationSeconds`). */
  speedingSeconds: number;
  harshG: number;
  /** Harsh driving is judged between fixes at most this far apart. */
  harshWithinSeconds: number;
  idleSeconds: number;
  lowVoltageV: number;
  /** Low voltage counts again only once the voltage has been back above this. */
  lowVoltageRearmV: number;
  powerCutV: number;
  maxRpm: number;
  maxCoolantC: number;
}

/** Episodes seen in reports, one per kind of alert rule (night driving aside: that is the clock's). */
export interface ConditionCounts {
  ignitionOn: number;
  ignitionOff: number;
  speeding: number;
  harshBraking: number;
  harshAcceleration: number;
  longIdle: number;
  lowVoltage: number;
  powerCut: number;
  highRpm: number;
  overheat: number;
  chargingStarts: number;
  areaEntries: number;
  areaExits: number;
}

export type Condition = keyof ConditionCounts;

const G = 9.81;

interface VehicleMemory {
  last: SimulatedReport;
  areas: string[];
  speedingSince?: number;
  speedingCounted: boolean;
  idleSince?: number;
  idleCounted: boolean;
  lowVoltageArmed: boolean;
  harsh?: 'braking' | 'acceleration';
}

/**
 * Watches reports, vehicle by vehicle in time order, for the episodes the alert rules fire on: what a
 * simulation run gives its alert engine to do (`npm run simulate` prints the counts). It judges the
 * reports only, never the vehicle model, so the simulator's tests can hold the model to it. A
 * vehicle's first report begins no condition: each needs a report before it to change from (the
 * lasting ones, speeding and idling, are timed from it).
 */
export class ConditionTracker {
  readonly counts: ConditionCounts = {
    ignitionOn: 0,
    ignitionOff: 0,
    speeding: 0,
    harshBraking: 0,
    harshAcceleration: 0,
    longIdle: 0,
    lowVoltage: 0,
    powerCut: 0,
    highRpm: 0,
    overheat: 0,
    chargingStarts: 0,
    areaEntries: 0,
    areaExits: 0,
  };
  private readonly vehicles = new Map<string, VehicleMemory>();
  private readonly limits: ConditionLimits;

  /** `limits` other than the defaults judge the reports as a configuration with those settings would. */
  constructor(
    private readonly network: RoadNetwork,
    limits: Partial<ConditionLimits> = {},
  ) {
    this.limits = { ...CONDITION_LIMITS, ...limits };
  }

  /** Takes the next report of a vehicle; returns the conditions that began with it. */
  observe(report: SimulatedReport): Condition[] {
    const areas = this.network.areasAt(report).map((area) => area.name);
    const memory = this.vehicles.get(report.imei);
    if (!memory) {
      // The clocks of the lasting conditions start here, though nothing can have lasted yet.
      this.vehicles.set(report.imei, {
        last: report,
        areas,
        speedingSince: report.speedKmh > this.limits.maxSpeedKmh ? report.time : undefined,
        speedingCounted: false,
        idleSince: report.ignition && report.speedKmh === 0 ? report.time : undefined,
        idleCounted: false,
        lowVoltageArmed: report.powerV >= this.limits.lowVoltageRearmV,
      });
      return [];
    }
    const began: Condition[] = [];
    const before = memory.last;
    const limits = this.limits;
    if (!before.ignition && report.ignition) began.push('ignitionOn');
    if (before.ignition && !report.ignition) began.push('ignitionOff');

    if (report.speedKmh > limits.maxSpeedKmh) {
      memory.speedingSince ??= report.time;
      if (!memory.speedingCounted && report.time - memory.speedingSince >= limits.speedingSeconds * 1000) {
        memory.speedingCounted = true;
        began.push('speeding');
      }
    } else {
      memory.speedingSince = undefined;
      memory.speedingCounted = false;
    }

    // One manoeuvre seen over several fixes (a second apart, say) is one episode.
    const seconds = (report.time - before.time) / 1000;
    const g =
      seconds > 0 && seconds <= limits.harshWithinSeconds
        ? (report.speedKmh - before.speedKmh) / 3.6 / seconds / G
        : 0;
    const harsh = g <= -limits.harshG ? 'braking' : g >= limits.harshG ? 'acceleration' : undefined;
    if (harsh === 'braking' && memory.harsh !== 'braking') began.push('harshBraking');
    if (harsh === 'acceleration' && memory.harsh !== 'acceleration') began.push('harshAcceleration');
    memory.harsh = harsh;

    if (report.ignition && report.speedKmh === 0) {
      memory.idleSince ??= report.time;
      if (!memory.idleCounted && report.time - memory.idleSince >= limits.idleSeconds * 1000) {
        memory.idleCounted = true;
        began.push('longIdle');
      }
    } else {
      memory.idleSince = undefined;
      memory.idleCounted = false;
    }

    if (report.powerV < limits.powerCutV) {
      if (before.powerV >= limits.powerCutV) began.push('powerCut');
    } else if (report.powerV < limits.lowVoltageV) {
      if (memory.lowVoltageArmed) began.push('lowVoltage');
      memory.lowVoltageArmed = false;
    } else if (report.powerV >= limits.lowVoltageRearmV) {
      memory.lowVoltageArmed = true;
    }

    if ((report.rpm ?? 0) > limits.maxRpm && !((before.rpm ?? 0) > limits.maxRpm)) began.push('highRpm');
    if (
      (report.coolantTempC ?? -Infinity) > limits.maxCoolantC &&
      !((before.coolantTempC ?? -Infinity) > limits.maxCoolantC)
    ) {
      began.push('overheat');
    }
    if (report.charging === true && before.charging === false) began.push('chargingStarts');
    for (const area of areas) if (!memory.areas.includes(area)) began.push('areaEntries');
    for (const area of memory.areas) if (!areas.includes(area)) began.push('areaExits');

    memory.last = report;
    memory.areas = areas;
    for (const condition of began) this.counts[condition] += 1;
    return began;
  }
}
