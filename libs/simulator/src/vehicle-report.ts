import type { EngineCodes } from './engine-codes';
import { EV_CHARGER_KW, FuelAndCharge } from './fuel-and-charge';
import { Random } from './random';
import { RoadNetwork } from './road-network';
import type { RouteDriving } from './route-driving';
import { SimulatedReport } from './simulated-report';
import { AMBIENT_C, Engine } from './vehicle-engine';

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** The parts of a vehicle its tracker reads. */
export interface ReportedParts {
  imei: string;
  /** The driver's id, reported with the ignition on. */
  driverId: string;
  electric: boolean;
  network: RoadNetwork;
  driving: RouteDriving;
  engine: Engine;
  energy: FuelAndCharge;
  codes: EngineCodes;
}

/** What a report shows that the vehicle's parts do not know themselves. */
export interface ReportMoment {
  time: number;
  /** The supply voltage the tracker measured (SupplyVoltage.reported). */
  powerV: number;
  ignition: boolean;
  /** An electric vehicle charging at a stop. */
  charging: boolean;
  doorsLocked: boolean;
  immobilised: boolean;
  /** Seconds since the simulation's start (which engine codes are active). */
  elapsedS: number;
}

/**
 * The reports of one vehicle's tracker, in the platform's units (SimulatedReport): what it measures,
 * rounded as trackers report it, with a tracker's measurement noise (position accuracy, satellites,
 * signal), and the readings its kind of vehicle has (fuel and an OBD engine for a combustion vehicle,
 * a traction battery for an electric one).
 */
export class VehicleReports {
  /** `noise` is the vehicle's measurement noise. */
  constructor(
    private readonly vehicle: ReportedParts,
    private readonly noise: Random,
  ) {}

  /** The report of the vehicle as it is now. */
  now(moment: ReportMoment): SimulatedReport {
    const { imei, driverId, electric, network, driving, engine, energy, codes } = this.vehicle;
    const { ignition, charging } = moment;
    const noise = this.noise;
    const position = driving.currentPosition;
    const speedMs = driving.currentSpeedMs;
    const inArea = network.areasAt(position).length > 0;
    return {
      imei,
      time: moment.time,
      lat: round(position.lat, 6),
      lng: round(position.lng, 6),
      speedKmh: round(speedMs * 3.6, 1),
      course: this.course(),
      altitudeM: this.altitude(),
      accuracyM: round(noise.between(3, inArea ? 12 : 8), 1),
      hdop: round(noise.between(0.7, 1.6), 1),
      satellites: noise.integer(7, 12),
      signal: noise.integer(inArea ? 2 : 3, 5),
      ignition,
      motion: speedMs > 0,
      odometerM: round(driving.currentOdometerM, 1),
      engineHours: round(engine.hours, 2),
      powerV: round(moment.powerV, 2),
      batteryLevel: round(energy.batteryLevel, 1),
      charging: electric ? charging : undefined,
      chargerPowerKw: charging ? EV_CHARGER_KW : undefined,
      batteryRangeKm: electric ? round(energy.rangeKm, 0) : undefined,
      fuelLevel: electric ? undefined : round(energy.fuelPercent, 1),
      rpm: !electric && ignition ? Math.round(engine.rpm(noise, speedMs, driving.boosting)) : undefined,
      coolantTempC: !electric && ignition ? round(engine.coolantC + noise.between(-0.4, 0.4), 1) : undefined,
      doorLocked: moment.doorsLocked,
      engineEnabled: !moment.immobilised,
      driver: ignition ? driverId : undefined,
      dtcCodes: ignition ? codes.at(moment.elapsedS) : undefined,
    };
  }

  /**
   * A report of the rest pre-history (rest-history.ts, RestingVehicle.reportAt) at `time`: standing
   * where the vehicle starts, with the readings it starts with, its noise drawn from `random`, the
   * pre-history's own generator.
   */
  atRest(
    time: number,
    {
      ignition,
      powerV,
      engineSecondsLater,
    }: { ignition: boolean; powerV: number; engineSecondsLater: number },
    random: Random,
  ): SimulatedReport {
    const { imei, driverId, electric, driving, engine, energy, codes } = this.vehicle;
    const position = driving.currentPosition;
    return {
      imei,
      time,
      lat: round(position.lat, 6),
      lng: round(position.lng, 6),
      speedKmh: 0,
      course: this.course(),
      altitudeM: this.altitude(),
      accuracyM: round(random.between(3, 8), 1),
      hdop: round(random.between(0.7, 1.6), 1),
      satellites: random.integer(7, 12),
      signal: random.integer(3, 5),
      ignition,
      motion: false,
      odometerM: round(driving.currentOdometerM, 1),
      engineHours: round(engine.hours - engineSecondsLater / 3600, 2),
      powerV: round(powerV, 2),
      batteryLevel: round(energy.batteryLevel, 1),
      // An electric van stands unplugged overnight: its charge is what it starts with.
      charging: electric ? false : undefined,
      batteryRangeKm: electric ? round(energy.rangeKm, 0) : undefined,
      fuelLevel: electric ? undefined : round(energy.fuelPercent, 1),
      rpm: !electric && ignition ? random.integer(720, 820) : undefined,
      coolantTempC:
        !electric && ignition ? round(random.between(AMBIENT_C - 3, AMBIENT_C + 3), 1) : undefined,
      // Locked overnight; the driver unlocks them to start the engine, and locks them leaving it.
      doorLocked: !ignition,
      engineEnabled: true,
      driver: ignition ? driverId : undefined,
      dtcCodes: ignition ? codes.at(0) : undefined,
    };
  }

  /** The heading in whole degrees, 0–359, as trackers report it (and the platform stores it). */
  private course(): number {
    return Math.round(this.vehicle.driving.currentHeading) % 360;
  }

  private altitude(): number {
    const { lat, lng } = this.vehicle.driving.currentPosition;
    return round(34 + 12 * Math.sin(lat * 900) + 8 * Math.cos(lng * 700), 1);
  }
}
