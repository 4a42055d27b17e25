import { haversineMetres, LatLng } from '@fleet/geo';
import { Random } from './random';
import { RoadNetwork, RoadSegment } from './road-network';

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
  /** External (vehicle battery) voltage. */
  powerV: number;
  /** The tracker's own battery, percent. */
  batteryLevel: number;
  charging: boolean;
  fuelLevel: number;
  doorLocked: boolean;
  engineEnabled: boolean;
  driver?: string;
  dtcCodes?: string[];
}

/**
 * What a vehicle is doing. Parked and delivering have the ignition off; starting (engine warming up) and
 * waiting (a traffic light) have it on with the vehicle standing still.
 */
export type VehiclePhase = 'parked' | 'delivering' | 'starting' | 'driving' | 'waiting';

const ACCELERATION = 1.8; // m/s²
const BRAKING = 2.5; // m/s²
const TURN_SPEED = 20 / 3.6; // m/s
const TANK_L = 80;
const STEP_S = 1;

/**
 * One vehicle of the simulated fleet: a small state machine over a road network, integrated in
 * one-second steps. Speed changes within acceleration and braking limits, so consecutive reports never
 * jump further than the vehicle could drive; the odometer is the sum of the distances actually driven.
 *
 * Traits drawn once per vehicle make a fleet varied: how far above the limit a driver goes on
 * arterials (some reach 90–105 km/h), a weak vehicle battery whose voltage sinks while parked, and an
 * engine fault code some vehicles carry.
 */
export class SimulatedVehicle {
  private phase: VehiclePhase;
  private phaseLeftS = 0;
  private position: LatLng;
  private route: RoadSegment[] = [];
  private segmentIndex = 0;
  private alongM = 0;
  private stopAtSegmentEnd = false;
  private speedMs = 0;
  private course = 0;
  private odometerM: number;
  private engineHours: number;
  private powerV = 12.7;
  private batteryLevel: number;
  private fuelL: number;
  private cranking = false;
  private time: number;
  private paceNoise = 1;
  private paceNoiseLeftS = 0;
  private headForDepot = false;

  private readonly leadFoot: number;
  private readonly weakBattery: boolean;
  private readonly faultCode?: string;
  private readonly driver: string;
  /** Measurement noise has its own generator, so how often a vehicle reports never changes how it drives. */
  private readonly noise: Random;

  constructor(
    readonly imei: string,
    private readonly network: RoadNetwork,
    private readonly random: Random,
    startTime: number,
    driverNumber: number,
  ) {
    this.time = startTime;
    this.noise = random.fork(0x6e6f6973);
    this.leadFoot = random.chance(0.4) ? random.between(0.1, 0.32) : random.between(-0.1, 0.05);
    this.weakBattery = random.chance(0.2);
    this.faultCode = random.chance(0.1) ? random.pick(['P0300', 'P0171', 'P0420', 'C1234']) : undefined;
    this.driver = `DRV-${String(driverNumber).padStart(4, '0')}`;
    this.odometerM = Math.round(random.between(5_000_000, 150_000_000));
    this.engineHours = Math.round(this.odometerM / 40_000);
    this.batteryLevel = random.between(60, 100);
    this.fuelL = TANK_L * random.between(0.3, 0.95);
    this.position = network.position(network.randomNode(random));
    // Most vehicles are on the road when the simulation starts, so a demo shows movement at once.
    if (random.chance(0.7)) {
      this.planRoute();
      this.phase = 'driving';
    } else {
      this.phase = 'parked';
      this.phaseLeftS = random.between(30, 600);
    }
  }

  get currentPhase(): VehiclePhase {
    return this.phase;
  }

  /** Moves the simulation forward to `time` (Unix ms, not before the last report) and reports there. */
  advanceTo(time: number): SimulatedReport {
    while (this.time + STEP_S * 1000 <= time) {
      this.step(STEP_S);
      this.time += STEP_S * 1000;
    }
    const remainder = (time - this.time) / 1000;
    if (remainder > 0) {
      this.step(remainder);
      this.time = time;
    }
    return this.report();
  }

  private get ignition(): boolean {
    return this.phase !== 'parked' && this.phase !== 'delivering';
  }

  private step(seconds: number): void {
    switch (this.phase) {
      case 'parked':
      case 'delivering':
      case 'starting':
      case 'waiting':
        this.speedMs = 0;
        this.phaseLeftS -= seconds;
        if (this.phaseLeftS <= 0) this.endStandstill();
        break;
      case 'driving':
        this.drive(seconds);
        break;
    }
    this.updateEnergy(seconds);
  }

  private endStandstill(): void {
    if (this.phase === 'parked' || this.phase === 'delivering') {
      this.phase = 'starting';
      this.phaseLeftS = this.random.between(15, 90);
      this.cranking = true;
      return;
    }
    if (this.phase === 'starting') this.planRoute();
    this.phase = 'driving';
  }

  private planRoute(): void {
    const from = this.network.nodeAt(this.position);
    let to = this.headForDepot ? this.network.depot() : this.network.randomDestination(this.random);
    this.headForDepot = false;
    if (to.row === from.row && to.col === from.col) to = this.network.randomNode(this.random);
    this.route = this.network.route(from, to, this.random);
    this.segmentIndex = 0;
    this.alongM = 0;
    this.enterSegment();
  }

  private enterSegment(): void {
    const last = this.segmentIndex === this.route.length - 1;
    this.stopAtSegmentEnd = last || this.random.chance(0.12);
  }

  private drive(seconds: number): void {
    const segment = this.route[this.segmentIndex];
    if (!segment) {
      this.arrive();
      return;
    }
    this.paceNoiseLeftS -= seconds;
    if (this.paceNoiseLeftS <= 0) {
      this.paceNoise = this.random.between(0.93, 1.05);
      this.paceNoiseLeftS = this.random.between(10, 40);
    }
    const excess = segment.limitKmh > 50 ? this.leadFoot : Math.min(this.leadFoot, 0.05);
    const cruise =
      ((segment.limitKmh * (1 + excess) * this.paceNoise) / 3.6) * (segment.limitKmh > 50 ? 1 : 0.9);
    const next = this.route[this.segmentIndex + 1];
    const endSpeed = this.stopAtSegmentEnd ? 0 : next && next.course !== segment.course ? TURN_SPEED : cruise;
    const leftM = segment.lengthM - this.alongM;
    const brakingLimit = Math.sqrt(endSpeed * endSpeed + 2 * BRAKING * Math.max(0, leftM - 1));
    const desired = Math.min(cruise, brakingLimit);
    const change = Math.max(-BRAKING * seconds, Math.min(ACCELERATION * seconds, desired - this.speedMs));
    // Never stand still short of the end of a segment: creep on at walking pace.
    this.speedMs = Math.max(this.speedMs + change, Math.min(1.5, leftM / seconds));
    this.course = segment.course;
    const travelM = Math.min(this.speedMs * seconds, leftM);
    this.alongM += travelM;
    const before = this.position;
    const fraction = this.alongM / segment.lengthM;
    this.position = {
      lat: segment.from.lat + (segment.to.lat - segment.from.lat) * fraction,
      lng: segment.from.lng + (segment.to.lng - segment.from.lng) * fraction,
    };
    this.odometerM += haversineMetres(before, this.position);
    this.fuelL -= (travelM / 100_000) * (segment.limitKmh > 50 ? 8 : 11);
    if (this.alongM >= segment.lengthM - 1e-6) {
      this.segmentIndex += 1;
      this.alongM = 0;
      if (this.stopAtSegmentEnd) {
        this.speedMs = 0;
        if (this.segmentIndex >= this.route.length) {
          this.arrive();
        } else {
          this.phase = 'waiting';
          this.phaseLeftS = this.random.between(15, 60);
        }
      }
      if (this.segmentIndex < this.route.length) this.enterSegment();
    }
  }

  private arrive(): void {
    this.speedMs = 0;
    const atDepot = this.network.areasAt(this.position).some((area) => area.name === 'Depot');
    if (atDepot && this.fuelL < TANK_L * 0.3) this.fuelL = TANK_L * 0.95;
    if (this.random.chance(0.6)) {
      this.phase = 'delivering';
      this.phaseLeftS = this.random.between(240, 720);
    } else {
      this.phase = 'parked';
      this.phaseLeftS = this.random.between(600, 2400);
    }
    // Low on fuel: the next route goes to the depot, where the tank is filled.
    this.headForDepot = this.fuelL < TANK_L * 0.2;
  }

  private updateEnergy(seconds: number): void {
    const hours = seconds / 3600;
    if (this.ignition) {
      this.engineHours += hours;
      this.fuelL -= 0.9 * hours;
      this.powerV += (this.random.between(13.9, 14.3) - this.powerV) * Math.min(1, seconds / 5);
      this.batteryLevel = Math.min(100, this.batteryLevel + 60 * hours);
    } else {
      // A healthy battery rests near 12.6 V; a weak one sinks below 11.8 V within half an hour.
      const floor = this.weakBattery ? 11.2 : 12.4;
      const rate = this.weakBattery ? 2.5 : 0.05;
      this.powerV = Math.max(floor, Math.min(12.7, this.powerV) - rate * hours);
      this.batteryLevel = Math.max(0, this.batteryLevel - (this.weakBattery ? 6 : 1.5) * hours);
    }
    this.fuelL = Math.max(0, this.fuelL);
  }

  private report(): SimulatedReport {
    const round = (value: number, digits: number) => Number(value.toFixed(digits));
    const inArea = this.network.areasAt(this.position).length > 0;
    // Starting an engine pulls the vehicle battery's voltage down for a moment.
    const powerV = this.cranking ? this.noise.between(10.2, 11.0) : this.powerV;
    this.cranking = false;
    const ignition = this.ignition;
    return {
      imei: this.imei,
      time: this.time,
      lat: round(this.position.lat, 6),
      lng: round(this.position.lng, 6),
      speedKmh: round(this.speedMs * 3.6, 1),
      course: this.course,
      altitudeM: round(
        34 + 12 * Math.sin(this.position.lat * 900) + 8 * Math.cos(this.position.lng * 700),
        1,
      ),
      accuracyM: round(this.noise.between(3, inArea ? 12 : 8), 1),
      hdop: round(this.noise.between(0.7, 1.6), 1),
      satellites: this.noise.integer(7, 12),
      signal: this.noise.integer(inArea ? 2 : 3, 5),
      ignition,
      motion: this.speedMs > 0,
      odometerM: round(this.odometerM, 1),
      engineHours: round(this.engineHours, 2),
      powerV: round(powerV, 2),
      batteryLevel: round(this.batteryLevel, 1),
      charging: ignition,
      fuelLevel: round((this.fuelL / TANK_L) * 100, 1),
      doorLocked: this.phase === 'parked',
      engineEnabled: true,
      driver: ignition ? this.driver : undefined,
      dtcCodes: ignition && this.faultCode ? [this.faultCode] : undefined,
    };
  }
}
