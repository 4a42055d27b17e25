import { DeviceCommand, CommandStatus } from './device-commands';
import { EngineCodes } from './engine-codes';
import { FuelAndCharge } from './fuel-and-charge';
import { IncidentSchedule } from './incident-schedule';
import { Random } from './random';
import { restHistory } from './rest-history';
import { RoadNetwork } from './road-network';
import { DriveOutcome, RouteDriving } from './route-driving';
import { SimulatedReport } from './simulated-report';
import { SupplyVoltage } from './supply-voltage';
import { STEP_S } from './time';
import { HEALTHY_RESTING_VOLTS, VehicleBattery } from './vehicle-battery';
import { VehicleCommands } from './vehicle-commands';
import { COOLANT_RUNNING_C, Engine } from './vehicle-engine';
import { VehicleReports } from './vehicle-report';
import { NO_TRAITS, VehicleTraits } from './vehicle-traits';

/**
 * What a vehicle is doing. Parked and delivering have the ignition off; starting (engine warming up) and
 * waiting (a traffic light, a jam, a gate) have it on with the vehicle standing still; immobilised is
 * standing where an `ignition` command (on: false) stopped it, the engine cut, until one releases it.
 */
export type VehiclePhase = 'parked' | 'delivering' | 'starting' | 'driving' | 'waiting' | 'immobilised';

/** Seconds from an immobiliser's release until the vehicle drives on (the engine starts). */
const RESTART_S = 5;

/**
 * One vehicle of the simulated fleet: a small state machine of phases (VehiclePhase), integrated in
 * one-second steps, over parts that each keep one concern: how it drives its routes (route-driving.ts,
 * with speed-incidents.ts and harsh-corner.ts), when its incidents are due (incident-schedule.ts), its
 * fuel and charge, its supply voltage and starter battery, its engine and its trouble codes, the
 * commands handed to its tracker, and the reports the tracker makes of it all (vehicle-report.ts).
 *
 * Traits drawn once per vehicle make a fleet varied: how far above the limit a driver goes on
 * arterials, its battery's resting voltage, and an engine fault code some vehicles carry; those dealt
 * by place (VehicleTraits) add one of each kind to any small fleet. Incidents (IncidentKind) add what
 * alert rules and the insights' driving events look for.
 *
 * Everything is drawn from seeded generators in a fixed order (simulated-vehicle.trace.spec.ts holds
 * the order to it): the vehicle's own (`random`: routes, stops, the alternator), its measurement noise,
 * and its incident schedule's, each forked from `random` so that one never shifts another.
 */
export class SimulatedVehicle {
  private phase: VehiclePhase;
  private phaseLeftS = 0;
  /** Fix time of the last report, and the time between the last two: the reporting the vehicle expects. */
  private lastReportAt?: number;
  private reportGapS = 5;
  private time: number;
  /** Simulated time at the start, Unix ms. */
  private readonly startTime: number;
  /** A standstill that is over, held until the next report so that the harsh start after it is seen whole. */
  private holdForBoost = false;
  /** The vehicle's own door state: commands set it; parking locks, and the driver's return unlocks. */
  private doorsLocked = false;
  /** The engine is cut (an `ignition` command with on: false) until released. */
  private immobilised = false;

  /** Measurement noise has its own generator, so how often a vehicle reports never changes how it drives. */
  private readonly noise: Random;
  private readonly incidents: IncidentSchedule;
  private readonly battery: VehicleBattery;
  private readonly energy: FuelAndCharge;
  private readonly driving: RouteDriving;
  private readonly supply: SupplyVoltage;
  private readonly engine: Engine;
  private readonly commands: VehicleCommands;
  private readonly reports: VehicleReports;

  constructor(
    readonly imei: string,
    private readonly network: RoadNetwork,
    private readonly random: Random,
    startTime: number,
    driverNumber: number,
    private readonly traits: VehicleTraits = NO_TRAITS,
  ) {
    this.time = startTime;
    this.startTime = startTime;
    this.noise = random.fork(0x6e6f6973);
    // The incident schedule has its own too: the first incidents come at the same times whatever the route.
    this.incidents = new IncidentSchedule(random.fork(0x696e6364), traits);
    // The draws from `random` below keep their order: each one shifts all after it.
    const leadFoot = random.chance(0.4) ? random.between(0.1, 0.32) : random.between(-0.1, 0.05);
    this.battery = new VehicleBattery(
      random.between(...HEALTHY_RESTING_VOLTS),
      traits.weakeningBattery,
      startTime,
    );
    const codes = EngineCodes.draw(random, traits);
    const odometerM = Math.round(random.between(5_000_000, 150_000_000));
    const engineHours = Math.round(odometerM / 40_000);
    this.energy = new FuelAndCharge(traits.electric, random);
    const position = network.position(network.randomNode(random));
    this.driving = new RouteDriving(network, random, this.incidents, this.energy, {
      leadFoot,
      odometerM,
      position,
    });
    this.supply = new SupplyVoltage(this.battery, traits.electric, random, this.noise);
    // Most vehicles are on the road when the simulation starts, so a demo shows movement at once.
    if (random.chance(0.7)) {
      this.engine = new Engine(traits.electric, engineHours, COOLANT_RUNNING_C);
      this.driving.startPartWay();
      this.phase = 'driving';
      this.supply.startRunning();
    } else {
      this.engine = new Engine(traits.electric, engineHours, random.between(20, 70));
      this.phase = 'parked';
      this.phaseLeftS = random.between(30, 600);
      this.supply.startParked(startTime);
    }
    this.doorsLocked = this.phase === 'parked';
    this.commands = new VehicleCommands({
      lockDoors: (lock) => {
        this.doorsLocked = lock;
      },
      immobilise: () => this.immobilise(),
      release: () => this.release(),
    });
    const driverId = `DRV-${String(driverNumber).padStart(4, '0')}`;
    this.reports = new VehicleReports(
      {
        imei,
        driverId,
        electric: traits.electric,
        network,
        driving: this.driving,
        engine: this.engine,
        energy: this.energy,
        codes,
      },
      this.noise,
    );
  }

  get currentPhase(): VehiclePhase {
    return this.phase;
  }

  /**
   * Carries out a command handed to the tracker, once per id: the same command handed out again (its
   * acknowledgement was lost) gets the same outcome without being carried out twice. `locate` needs
   * nothing: the report that acknowledges it is the fresh position.
   */
  receive(command: DeviceCommand): CommandStatus {
    return this.commands.receive(command);
  }

  /** Driving, the vehicle rolls to a stop (RouteDriving.drive); standing with the engine running, it stops at once. */
  private immobilise(): void {
    this.immobilised = true;
    if (this.phase === 'starting' || this.phase === 'waiting') this.stopEngine();
  }

  private stopEngine(): void {
    this.driving.engineStopped();
    this.holdForBoost = false;
    this.phase = 'immobilised';
  }

  /** Stopped by the immobiliser, the vehicle starts its engine and drives on along its route. */
  private release(): void {
    this.immobilised = false;
    if (this.phase !== 'immobilised') return;
    this.engineStarted();
    // Not standStill(): a long idle that fell due meanwhile waits for a stop of the vehicle's own.
    this.phase = 'starting';
    this.phaseLeftS = RESTART_S;
  }

  /** Moves the simulation forward to `time` (Unix ms, not before the last report) and reports there. */
  advanceTo(time: number): SimulatedReport {
    return this.advance(time, false);
  }

  /**
   * Moves the simulation forward to `time` and reports there, or reports earlier when the tracker
   * reports of its own accord: at the moment the engine starts (trackers report an ignition change at
   * once), a report that shows the cranking dip. Call it again with the same `time` for the report due
   * then.
   */
  advanceToNextReport(time: number): SimulatedReport {
    return this.advance(time, true);
  }

  /**
   * The vehicle's nights at rest before the simulation's start (rest-history.ts): `days` mornings of
   * an engine start that runs a minute, at the place and with the readings it starts with. Made from
   * generators of its own, it changes nothing of what the vehicle does afterwards.
   */
  restHistory(days: number): SimulatedReport[] {
    const random = this.noise.fork(0x72657374);
    return restHistory(
      {
        battery: this.battery,
        electric: this.traits.electric,
        reportAt: (time, state) => this.reports.atRest(time, state, random),
      },
      days,
      this.startTime,
      random,
    );
  }

  private advance(time: number, stopAtStart: boolean): SimulatedReport {
    this.afterReport();
    while (this.time < time) {
      const seconds = Math.min(STEP_S, (time - this.time) / 1000);
      const wasOn = this.ignition;
      this.step(seconds);
      this.time = seconds === STEP_S ? this.time + STEP_S * 1000 : time;
      if (!wasOn && this.ignition) {
        this.engineStarted();
        if (stopAtStart && this.time < time) break;
      }
    }
    return this.report();
  }

  /** The ignition went on now: the next report (this moment's, or a second later) shows the crank. */
  private engineStarted(): void {
    this.supply.engineStarted(this.time);
  }

  private get ignition(): boolean {
    return this.phase !== 'parked' && this.phase !== 'delivering' && this.phase !== 'immobilised';
  }

  /** Electric vehicles charge at every stop with the ignition off (depot and customers' chargers). */
  private get evCharging(): boolean {
    return this.energy.canCharge && !this.ignition && this.phase !== 'immobilised';
  }

  /**
   * A harsh manoeuvre starts right after a report, so that the next report (at most 5 s later for the
   * harsh-driving rules to judge it) sees the whole change of speed, whatever the report interval.
   * So does a harsh corner, at the report nearest to when its turn would be centred on the junction.
   */
  private afterReport(): void {
    const drivingFree = () => this.phase === 'driving' && !this.immobilised;
    if (drivingFree()) this.driving.cornerAfterReport(this.reportGapS);
    if (this.holdForBoost) {
      this.holdForBoost = false;
      this.phase = 'driving';
      this.driving.startBoost();
    } else if (drivingFree()) {
      this.driving.brakeIfDue();
    }
  }

  private step(seconds: number): void {
    // Immobilised while rolling to a stop line: the engine is cut once standing.
    if (this.immobilised && (this.phase === 'starting' || this.phase === 'waiting')) this.stopEngine();
    this.startIncidents();
    switch (this.phase) {
      case 'parked':
      case 'delivering':
      case 'starting':
      case 'waiting':
        this.driving.stand();
        this.phaseLeftS -= seconds;
        if (this.phaseLeftS <= 0 && !this.holdForBoost) this.endStandstill();
        break;
      case 'immobilised':
        this.driving.stand();
        break;
      case 'driving':
        this.follow(this.driving.drive(seconds, this.immobilised));
        break;
    }
    this.energy.update(seconds, this.ignition, this.evCharging);
    this.supply.update(seconds, this.ignition, this.time + seconds * 1000);
    this.engine.update(seconds, this.ignition);
    this.incidents.tick(seconds);
  }

  /** The phase after a step of driving. */
  private follow(outcome: DriveOutcome): void {
    switch (outcome.kind) {
      case 'drivingOn':
        break;
      case 'arrived':
        this.arrive();
        break;
      case 'cutOff':
        this.stopEngine();
        break;
      case 'waiting':
        this.standStill('waiting', outcome.seconds);
        break;
    }
  }

  /** Incidents that need no particular moment start as soon as they are due and can happen. */
  private startIncidents(): void {
    this.supply.startIncidents(this.incidents, this.ignition);
    const drivingMs = this.phase === 'driving' ? this.driving.currentSpeedMs : 0;
    this.engine.startIncidents(this.incidents, this.ignition, drivingMs);
    this.driving.startSpeeding();
  }

  /** Standing with the engine running: a long idle when one is due, else as long as the caller says. */
  private standStill(phase: 'starting' | 'waiting', seconds: number): void {
    this.driving.endManoeuvre();
    this.phase = phase;
    this.phaseLeftS = seconds;
    if (this.incidents.isDue('longIdle')) {
      // Waiting at a loading gate with the engine running, past the idling alert's five minutes.
      this.phaseLeftS = this.incidents.between(330, 480);
      this.incidents.happened('longIdle');
    }
  }

  private endStandstill(): void {
    // An immobilised engine does not start: the stop lasts until the immobiliser is released.
    if (this.immobilised) return;
    if (this.phase === 'parked' || this.phase === 'delivering') {
      // The driver is back: doors unlocked.
      this.doorsLocked = false;
      // The route is chosen when the engine starts, so that a harsh start can be planned for its first road.
      this.driving.planRoute();
      this.standStill('starting', this.random.between(15, 90));
      return;
    }
    if (this.incidents.isDue('harshAcceleration') && this.driving.roomToBoost()) {
      this.holdForBoost = true;
      return;
    }
    this.phase = 'driving';
  }

  private arrive(): void {
    this.driving.endManoeuvre();
    this.driving.stand();
    const atDepot = this.network.areasAt(this.driving.currentPosition).some((area) => area.name === 'Depot');
    if (atDepot) this.energy.refuelAtDepot();
    if (this.random.chance(0.6)) {
      this.phase = 'delivering';
      this.phaseLeftS = this.random.between(240, 720);
    } else {
      this.phase = 'parked';
      this.phaseLeftS = this.random.between(600, 2400);
    }
    // Parked, the driver locks up; delivering, the doors stay open.
    this.doorsLocked = this.phase === 'parked';
    // Low on fuel (or charge): the next route goes to the depot, where the tank is filled.
    this.driving.headForDepot = this.energy.low;
  }

  private report(): SimulatedReport {
    if (this.lastReportAt !== undefined && this.time > this.lastReportAt) {
      this.reportGapS = (this.time - this.lastReportAt) / 1000;
    }
    this.lastReportAt = this.time;
    const powerV = this.supply.reported(this.time, this.ignition);
    return this.reports.now({
      time: this.time,
      powerV,
      ignition: this.ignition,
      charging: this.evCharging,
      doorsLocked: this.doorsLocked,
      immobilised: this.immobilised,
      elapsedS: this.incidents.elapsedS,
    });
  }
}
