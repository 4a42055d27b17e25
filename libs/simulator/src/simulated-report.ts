import type { CommandStatus } from './device-commands';

/** One report of a simulated tracker, in the platform's units (converted to OsmAnd's on the wire). */
export interface SimulatedReport {
  imei: string;
  /** Fix time, Unix milliseconds. */
  time: number;
  lat: number;
  lng: number;
  speedKmh: number;
  course: number;
  altitudeM: number;
  accuracyM: number;
  hdop: number;
  satellites: number;
  /** Signal bars, 0–5. */
  signal: number;
  ignition: boolean;
  motion: boolean;
  odometerM: number;
  engineHours: number;
  /** External (vehicle battery) voltage; 0 while the tracker's power is cut. */
  powerV: number;
  /** Percent: the tracker's own battery, or the traction battery of an electric vehicle. */
  batteryLevel: number;
  /** Electric vehicles only: plugged in and charging. */
  charging?: boolean;
  /** Electric vehicles only, while charging. */
  chargerPowerKw?: number;
  /** Electric vehicles only. */
  batteryRangeKm?: number;
  /** Combustion vehicles only. */
  fuelLevel?: number;
  /** Combustion vehicles with the ignition on (an OBD reading). */
  rpm?: number;
  /** Combustion vehicles with the ignition on (an OBD reading), °C. */
  coolantTempC?: number;
  doorLocked: boolean;
  /** False while the engine is immobilised by an `ignition` command. */
  engineEnabled: boolean;
  driver?: string;
  dtcCodes?: string[];
  /** The command this report acknowledges (`cmdid`), with its outcome (`cmdstatus`). */
  commandId?: string;
  commandStatus?: CommandStatus;
}
