import { DAY_MS, MINUTE_MS } from './time';
import { Random } from './random';
import type { SimulatedReport } from './simulated-report';
import { ALTERNATOR_VOLTS, RESTING_NOISE_VOLTS, VehicleBattery } from './vehicle-battery';

/**
 * A sparse past of nights at rest, reported before a simulation's history (FleetSimulatorOptions
 * `restHistoryDays`): what a battery-health figure needs, resting voltages on many days and the
 * cranking dips of engine starts, without simulating weeks of driving. Each day of it is a night
 * parked with the ignition off, reported every two hours, and a morning engine start that runs a
 * minute without moving (docs/simulator.md, Rest pre-history).
 */

/** The morning engine start, minutes after midnight UTC, before each vehicle's own spread. */
export const REST_MORNING_START_UTC_MINUTES = 5 * 60 + 30;
/** Each vehicle starts its mornings this many minutes later at most (drawn once per vehicle). */
export const REST_START_SPREAD_MINUTES = 40;
/**
 * The night's reports, minutes before the morning start: every two hours from about 22:00 UTC. Each
 * is hours after the engine stopped, past the insights' 15 minutes: all are settled resting samples.
 */
export const REST_NIGHT_REPORT_MINUTES_BEFORE_START: readonly number[] = [450, 330, 210, 90];
/** The alternator's reading follows the cranking report after this many seconds. */
export const REST_ALTERNATOR_AFTER_SECONDS = 1;
/** The engine runs this long each morning (standing), then the ignition goes off again. */
export const REST_ENGINE_RUN_SECONDS = 60;

/** The vehicle a pre-history is made for. */
export interface RestingVehicle {
  battery: VehicleBattery;
  /** No starter motor: an electric vehicle's supply stays up when it is switched on. */
  electric: boolean;
  /**
   * The report the vehicle makes at `time`, standing at its parking spot with these readings;
   * `engineSecondsLater` is how long its engine runs after `time` within the pre-history (its engine
   * hours are that much lower than at the simulation's start).
   */
  reportAt(
    time: number,
    state: { ignition: boolean; powerV: number; engineSecondsLater: number },
  ): SimulatedReport;
}

/**
 * The engine-start times (Unix ms, oldest first) of `days` mornings, the last one ending (its engine
 * off again) strictly before `before`: REST_MORNING_START_UTC_MINUTES plus `spreadMinutes` each day.
 */
export function restMornings(days: number, before: number, spreadMinutes: number): number[] {
  let last =
    Math.floor(before / DAY_MS) * DAY_MS + (REST_MORNING_START_UTC_MINUTES + spreadMinutes) * MINUTE_MS;
  while (last + REST_ENGINE_RUN_SECONDS * 1000 >= before) last -= DAY_MS;
  return Array.from({ length: days }, (_, day) => last - (days - 1 - day) * DAY_MS);
}

/**
 * The pre-history of one vehicle, in time order, every fix time before `before` (the start of its
 * regular reports): for each of `days` mornings, the night before it (ignition off, every two hours),
 * the engine start (the cranking dip), the alternator a second later, the ignition off a minute after
 * the start. `random` is the pre-history's own generator (whole-minute spread, voltages' noise), so
 * that it changes nothing of what the vehicle does afterwards.
 */
export function restHistory(
  vehicle: RestingVehicle,
  days: number,
  before: number,
  random: Random,
): SimulatedReport[] {
  if (days <= 0) return [];
  const mornings = restMornings(days, before, random.integer(0, REST_START_SPREAD_MINUTES));
  const reports: SimulatedReport[] = [];
  const noise = () => random.between(-RESTING_NOISE_VOLTS, RESTING_NOISE_VOLTS);
  let engineSecondsLater = days * REST_ENGINE_RUN_SECONDS;
  let offSince: number | undefined;
  const off = (time: number) => {
    // The first night of the pre-history follows a stop long before it: settled.
    const offSeconds = offSince === undefined ? Infinity : (time - offSince) / 1000;
    const powerV = vehicle.battery.parkedVolts(time, offSeconds) + noise();
    reports.push(vehicle.reportAt(time, { ignition: false, powerV, engineSecondsLater }));
  };
  for (const start of mornings) {
    for (const minutes of REST_NIGHT_REPORT_MINUTES_BEFORE_START) off(start - minutes * MINUTE_MS);
    const alternator = () => random.between(...ALTERNATOR_VOLTS);
    const crank = vehicle.electric ? alternator() : vehicle.battery.crankingVolts(random);
    reports.push(vehicle.reportAt(start, { ignition: true, powerV: crank, engineSecondsLater }));
    engineSecondsLater -= REST_ALTERNATOR_AFTER_SECONDS;
    reports.push(
      vehicle.reportAt(start + REST_ALTERNATOR_AFTER_SECONDS * 1000, {
        ignition: true,
        powerV: alternator(),
        engineSecondsLater,
      }),
    );
    engineSecondsLater -= REST_ENGINE_RUN_SECONDS - REST_ALTERNATOR_AFTER_SECONDS;
    offSince = start + REST_ENGINE_RUN_SECONDS * 1000;
    off(offSince);
  }
  return reports;
}
