/**
 * The battery health method (docs/insights.md, Battery health). Pure: the service gathers a vehicle's
 * resting and cranking samples from `vehicle_activity` (already summed per quarter hour and local day)
 * and its latest readings; this judges them.
 *
 * Reference points of a lead-acid starter battery at rest (engine off long enough for the surface
 * charge to go): about 12.6 V full, 12.2 V half, 12.0 V a quarter charged. While the engine cranks,
 * a healthy battery stays above 10 V; one that dips below 9.6 V (at about 21 °C) is failing. A 24 V
 * system is two such batteries in series: every voltage doubles.
 */

export type BatteryStatus = 'Good' | 'Fair' | 'Poor' | 'Critical' | 'Unknown';
export type BatteryType = '12V' | '24V' | 'EV';
export type BatteryTrend = 'Declining' | 'Stable' | 'Rising';

/** The window of the resting voltage, its trend and the prediction (days before now). */
export const RESTING_WINDOW_DAYS = 30;
/** The window of "recent starts": the lowest cranking voltage and the start count (days before now). */
export const CRANKING_WINDOW_DAYS = 7;

/**
 * A supply voltage above this is a 24 V system's: a 12 V system never shows it (it charges at about
 * 14.4 V), a 24 V one never falls to it at rest (24.0 V is already a quarter charged).
 */
export const SYSTEM_24V_ABOVE_VOLTS = 18;

/** Resting-voltage thresholds of a 12 V system (doubled for 24 V): the status is the first one reached. */
export const RESTING_THRESHOLDS_12V: readonly {
  status: Exclude<BatteryStatus, 'Unknown'>;
  atLeast: number;
}[] = Object.freeze([
  { status: 'Good', atLeast: 12.4 },
  { status: 'Fair', atLeast: 12.2 },
  { status: 'Poor', atLeast: 12.0 },
]);
/** Below it at rest (12 V system) the battery is Critical, and the prediction counts the days to it. */
export const CRITICAL_RESTING_VOLTS_12V = 12.0;
/** A cranking dip below this (12 V system) is a failing battery: Critical whatever the resting voltage. */
export const FAILING_CRANKING_VOLTS_12V = 9.6;
/** A cranking dip below this (12 V system) makes the status at best Poor: the battery is tiring. */
export const WEAK_CRANKING_VOLTS_12V = 10.0;

/**
 * The noise floor of the trend (12 V system, doubled for 24 V): a slope between −0.005 and +0.005
 * V/day is Stable. The daily resting means of a sound battery scatter by a few hundredths of a volt
 * with temperature and the length of the rest, which fits slopes of this size to a month; and at
 * 0.005 V/day a full battery would need four months to reach the critical level.
 */
export const STABLE_SLOPE_VOLTS_PER_DAY_12V = 0.005;
/** A trend needs resting samples on at least this many local days. */
export const MIN_TREND_DAYS = 3;

/** State-of-charge thresholds of an electric vehicle's traction battery, percent. */
export const STATE_OF_CHARGE_THRESHOLDS: readonly {
  status: Exclude<BatteryStatus, 'Unknown'>;
  atLeast: number;
}[] = Object.freeze([
  { status: 'Good', atLeast: 50 },
  { status: 'Fair', atLeast: 20 },
  { status: 'Poor', atLeast: 10 },
]);

/** The resting samples of one local day (in the company's time zone). */
export interface RestingDay {
  /** `yyyy-MM-dd`. */
  day: string;
  count: number;
  sumV: number;
}

/** The latest readings of the vehicle's last position that bear on its battery. */
export interface BatteryReadings {
  powerV?: number;
  batteryLevel?: number;
  batteryRangeKm?: number;
  charging?: boolean;
  chargerPowerKw?: number;
}

/** What the service gathered for one vehicle; every sample lies in its window already. */
export interface BatteryEvidence {
  /** The local days of the last RESTING_WINDOW_DAYS with resting samples. */
  restingDays: readonly RestingDay[];
  /** The latest resting sample of the last RESTING_WINDOW_DAYS. */
  latestResting?: { volts: number; at: Date };
  /** Cranking samples and engine starts of the last CRANKING_WINDOW_DAYS. */
  cranking: { count: number; lowestV?: number; starts: number };
  /** The quarter hours (UTC starts) of the first and last sample counted. */
  period?: { start: Date; end: Date };
  /** The latest report's readings; undefined when the vehicle never reported. */
  readings?: BatteryReadings;
  /** Today's local date (`yyyy-MM-dd`) in the company's time zone: where the trend line is read. */
  today: string;
}

export interface BatteryHealth {
  /** null: nothing to tell the system voltage from. */
  batteryType: BatteryType | null;
  status: BatteryStatus;
  restingVoltage: number | null;
  restingVoltageAt: Date | null;
  lowestCrankingVoltage: number | null;
  engineStarts: number;
  trendVoltsPerDay: number | null;
  trend: BatteryTrend | null;
  predictedDaysToCritical: number | null;
  /** The resting voltage the prediction counts to (12.0 or 24.0 V); null when the system is unknown. */
  criticalVoltage: number | null;
  /** EVs: the traction battery's state of charge, percent. */
  stateOfCharge: number | null;
  sampleCount: number;
  periodStart: Date | null;
  periodEnd: Date | null;
  /** Local days with resting samples: the points of the trend. */
  daysUsed: number;
}

/** `value` to `digits` decimals; never -0 (a flat trend is 0). */
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits || 0;

/**
 * Voltages are judged to 0.01 V, as trackers report them: the table keeps them in single precision,
 * where 12.4 reads back as 12.3999996 and would fall a threshold short.
 */
const volts = (value: number) => round(value, 2);

const SEVERITY: Readonly<Record<BatteryStatus, number>> = {
  Unknown: -1,
  Good: 0,
  Fair: 1,
  Poor: 2,
  Critical: 3,
};
const worse = (a: BatteryStatus, b: BatteryStatus): BatteryStatus => (SEVERITY[a] >= SEVERITY[b] ? a : b);

function statusFrom(
  value: number,
  thresholds: readonly { status: Exclude<BatteryStatus, 'Unknown'>; atLeast: number }[],
  scale: number,
): BatteryStatus {
  return thresholds.find((threshold) => value >= threshold.atLeast * scale)?.status ?? 'Critical';
}

/**
 * 24 V when the vehicle's voltage is above SYSTEM_24V_ABOVE_VOLTS: its mean resting voltage if it
 * has resting samples; else the higher of its lowest cranking voltage and its latest supply voltage
 * (a 12 V system shows neither above 14.8 V; a 24 V one charges at about 28 V, so its running
 * voltage tells even when its cranking dips are deep). undefined with no voltage at all.
 */
export function systemVoltsOf(evidence: BatteryEvidence): 12 | 24 | undefined {
  const restCount = evidence.restingDays.reduce((sum, day) => sum + day.count, 0);
  let reference: number | undefined;
  if (restCount > 0) {
    reference = evidence.restingDays.reduce((sum, day) => sum + day.sumV, 0) / restCount;
  } else if (evidence.latestResting) {
    reference = evidence.latestResting.volts;
  } else {
    const others = [evidence.cranking.lowestV, evidence.readings?.powerV].filter(
      (value): value is number => value !== undefined,
    );
    if (others.length) reference = Math.max(...others);
  }
  if (reference === undefined) return undefined;
  return reference > SYSTEM_24V_ABOVE_VOLTS ? 24 : 12;
}

/**
 * An electric vehicle: its latest report carries a traction battery's readings (range, charging
 * state or charger power) together with its state of charge. `batteryLevel` alone is not enough: a
 * combustion vehicle's tracker reports its own backup battery's level under that name.
 */
export function isElectric(readings: BatteryReadings | undefined): boolean {
  if (readings?.batteryLevel === undefined) return false;
  return (
    readings.batteryRangeKm !== undefined ||
    readings.charging !== undefined ||
    readings.chargerPowerKw !== undefined
  );
}

const dayNumber = (day: string): number => {
  const [year, month, date] = day.split('-').map(Number);
  return Date.UTC(year, month - 1, date) / 86_400_000;
};

/** The least-squares line through the daily means: slope (V/day) and its value on `today`. */
export function fitRestingTrend(
  days: readonly RestingDay[],
  today: string,
): { slope: number; valueToday: number } | undefined {
  const points = days
    .filter((day) => day.count > 0)
    .map((day) => ({ x: dayNumber(day.day), y: day.sumV / day.count }));
  if (points.length < MIN_TREND_DAYS) return undefined;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / points.length;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / points.length;
  const sxx = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  const sxy = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0);
  const slope = sxy / sxx;
  return { slope, valueToday: meanY + slope * (dayNumber(today) - meanX) };
}

/**
 * Whole days until the fitted line reaches `critical`, rounded down (better a day early than late):
 * 0 when it is at or below it today, whether falling or not; null when it is not falling faster
 * than the noise floor `stableSlope`.
 */
export function daysToCritical(
  fit: { slope: number; valueToday: number },
  critical: number,
  stableSlope: number,
): number | null {
  if (fit.valueToday <= critical) return 0;
  if (fit.slope >= -stableSlope) return null;
  // The epsilon keeps an exact answer (0.3 V at 0.01 V/day: 30) from flooring to 29.
  return Math.floor((fit.valueToday - critical) / -fit.slope + 1e-9);
}

/** The battery health of one vehicle from what the service gathered. */
export function batteryHealth(evidence: BatteryEvidence): BatteryHealth {
  const system = systemVoltsOf(evidence);
  const scale = system === 24 ? 2 : 1;
  const electric = isElectric(evidence.readings);
  const resting = evidence.latestResting && volts(evidence.latestResting.volts);
  const lowestCranking =
    evidence.cranking.lowestV === undefined ? undefined : volts(evidence.cranking.lowestV);

  let voltageStatus: BatteryStatus = 'Unknown';
  if (resting !== undefined) voltageStatus = statusFrom(resting, RESTING_THRESHOLDS_12V, scale);
  if (lowestCranking !== undefined) {
    if (lowestCranking < FAILING_CRANKING_VOLTS_12V * scale) {
      // A failing cranking dip is Critical even without a resting sample: it is the load test itself.
      voltageStatus = 'Critical';
    } else if (lowestCranking < WEAK_CRANKING_VOLTS_12V * scale && resting !== undefined) {
      voltageStatus = worse(voltageStatus, 'Poor');
    }
  }

  const fit = fitRestingTrend(evidence.restingDays, evidence.today);
  const stableSlope = STABLE_SLOPE_VOLTS_PER_DAY_12V * scale;
  const critical = system === undefined ? undefined : CRITICAL_RESTING_VOLTS_12V * scale;
  let trend: BatteryTrend | null = null;
  if (fit) trend = fit.slope < -stableSlope ? 'Declining' : fit.slope > stableSlope ? 'Rising' : 'Stable';

  const stateOfCharge = electric ? round(evidence.readings!.batteryLevel!, 1) : null;
  const restCount = evidence.restingDays.reduce((sum, day) => sum + day.count, 0);
  return {
    batteryType: electric ? 'EV' : system === undefined ? null : system === 24 ? '24V' : '12V',
    status: stateOfCharge !== null ? statusFrom(stateOfCharge, STATE_OF_CHARGE_THRESHOLDS, 1) : voltageStatus,
    restingVoltage: resting ?? null,
    restingVoltageAt: evidence.latestResting?.at ?? null,
    lowestCrankingVoltage: lowestCranking ?? null,
    engineStarts: evidence.cranking.starts,
    trendVoltsPerDay: fit ? round(fit.slope, 4) : null,
    trend,
    predictedDaysToCritical:
      fit && critical !== undefined ? daysToCritical(fit, critical, stableSlope) : null,
    criticalVoltage: critical ?? null,
    stateOfCharge,
    sampleCount: restCount + evidence.cranking.count,
    periodStart: evidence.period?.start ?? null,
    periodEnd: evidence.period?.end ?? null,
    daysUsed: evidence.restingDays.filter((day) => day.count > 0).length,
  };
}
