import { haversineMetres, LatLng } from '@fleet/geo';
import { CommandStatus, DeviceCommand } from './device-commands';
import { Random } from './random';
import { restHistory } from './rest-history';
import { RoadNetwork, RoadSegment, STREET_LIMIT_KMH } from './road-network';
import { SimulatedReport } from './simulated-report';
import {
  ALTERNATOR_VOLTS,
  HEALTHY_RESTING_VOLTS,
  RESTING_NOISE_VOLTS,
  VehicleBattery,
} from './vehicle-battery';

/**
 * What a vehicle is doing. Parked and delivering have the ignition off; starting (engine warming up) and
 * waiting (a traffic light, a jam, a gate) have it on with the vehicle standing still; immobilised is
 * standing where an `ignition` command (on: false) stopped it, the engine cut, until one releases it.
 */
export type VehiclePhase = 'parked' | 'delivering' | 'starting' | 'driving' | 'waiting' | 'immobilised';

/**
 * What a vehicle is, dealt by its place in the fleet (see fleetTraits) so that any small fleet has one
 * of each: an electric van, a tracker with a loose power connector, a battery that weakens from day to
 * day, and a vehicle with engine trouble codes.
 */
export interface VehicleTraits {
  /** No fuel, engine speed or coolant; a traction battery that charges at stops. */
  electric: boolean;
  /** Now and then the tracker loses the vehicle's power for a few minutes (it reports 0 V). */
  loosePowerConnector: boolean;
  /**
   * The starter battery is wearing out: its resting voltage falls by WEAKENING_VOLTS_PER_DAY a day
   * (vehicle-battery.ts) and it dips deeper when cranking.
   */
  weakeningBattery: boolean;
  /** Reports ENGINE_CODES while the ignition is on, the first of them until ENGINE_CODE_CLEARED_AFTER_S. */
  engineCodes: boolean;
}

export const NO_TRAITS: Readonly<VehicleTraits> = Object.freeze({
  electric: false,
  loosePowerConnector: false,
  weakeningBattery: false,
  engineCodes: false,
});

/**
 * The traits of the fleet's `index`-th vehicle (0-based): the 2nd, 7th, 12th... is electric; the 1st,
 * 11th... has the loose connector and the engine codes; the 3rd, 13th... the weakening battery. In the
 * demo tenant the 1st and 3rd are vehicles of the top company, so its insight routes show both.
 */
export function fleetTraits(index: number): VehicleTraits {
  return {
    electric: index % 5 === 1,
    loosePowerConnector: index % 10 === 0,
    weakeningBattery: index % 10 === 2,
    engineCodes: index % 10 === 0,
  };
}

/**
 * The trouble codes of the engineCodes vehicle: a misfire of cylinder 1, a lean mixture, and a
 * manufacturer-specific code (P1xxx), reported with the ignition on (`dtcs`).
 */
export const ENGINE_CODES: readonly string[] = ['P0301', 'P0171', 'P1A2B'];
/**
 * The misfire (the first code) is repaired this long after the simulation's start and no longer
 * reported, so the vehicle shows a code that went inactive next to active ones.
 */
export const ENGINE_CODE_CLEARED_AFTER_S = 30 * 60;

/**
 * The things that make alerts, each one an episode a vehicle goes through now and then: the first one
 * early (so that a demo shows every alert type within minutes of its start, and a history fill holds
 * them all), the next ones after long gaps (the rarer, the longer). An incident that is due waits for
 * the moment it can happen (a harsh brake needs speed, an overheating engine must be running).
 */
export type IncidentKind =
  | 'speeding'
  | 'harshBraking'
  | 'harshAcceleration'
  | 'longIdle'
  | 'voltageDip'
  | 'highRpm'
  | 'overheat'
  | 'powerCut'
  | 'harshCornering';

/** Seconds from the start until the first one is due, and between one and the next. */
const INCIDENT_TIMING: Record<IncidentKind, { first: [number, number]; gap: [number, number] }> = {
  speeding: { first: [30, 300], gap: [1_200, 3_600] },
  harshBraking: { first: [60, 420], gap: [1_800, 4_800] },
  harshAcceleration: { first: [30, 360], gap: [1_800, 4_800] },
  longIdle: { first: [30, 240], gap: [2_400, 6_000] },
  voltageDip: { first: [60, 420], gap: [3_600, 7_200] },
  highRpm: { first: [60, 420], gap: [5_400, 10_800] },
  overheat: { first: [60, 360], gap: [7_200, 14_400] },
  powerCut: { first: [120, 420], gap: [7_200, 14_400] },
  // Last: the schedule draws in this order, and an addition must not move the others' times.
  harshCornering: { first: [60, 360], gap: [1_800, 4_800] },
};

const G = 9.81; // m/s²
const ACCELERATION = 1.8; // m/s²
const BRAKING = 2.5; // m/s²
/**
 * A harsh manoeuvre changes the speed by 0.5 g or more for five seconds (or until standing): two fixes
 * up to 5 s apart then differ by at least 0.45 g, the margin above the alert types' defaults.
 */
const HARSH_ACCELERATION = 0.52 * G;
const HARSH_ACCELERATION_S = 5;
const EMERGENCY_BRAKING = 0.85 * G;
/** An emergency stop starts from at least this speed: from it, standing 5 s later is 0.48 g. */
const EMERGENCY_STOP_FROM = 85 / 3.6;
/** Room a harsh acceleration needs ahead, so that normal braking still stops it at the segment's end. */
const BOOST_ROOM_M = 300;
const TURN_SPEED = 20 / 3.6; // m/s
/**
 * An ordinary turn is gradual: the heading turns by at most this many degrees per metre driven (90°
 * over 40 m, a radius of about 25 m), at no more than TURN_SPEED, so its lateral acceleration stays
 * near 0.12 g (v²/r); measured from two fixes of any interval, as the insights do (mean speed × change
 * of course / time between them), it stays below 0.2 g.
 */
const TURN_DEGREES_PER_M = 90 / 40;
/** A heading this close to the road's is on it (the rest is the course's rounding). */
const ALIGNED_DEGREES = 0.5;
/**
 * A harsh corner: a turn taken at this speed (held through the turn) at HARSH_TURN_DEGREES_PER_S,
 * 0.63 g of lateral acceleration; two fixes up to 5 s apart around it read at least 0.57 g.
 */
const HARSH_CORNER_SPEED = 64 / 3.6;
const HARSH_TURN_DEGREES_PER_S = 20;
/** Longest wait past a harsh corner's junction for a report to start the turn after (HARSH_EVENT_MAX_GAP_MS). */
const HARSH_CORNER_MAX_WAIT_S = 5;
/** No van goes faster, whatever the driver. */
const TOP_SPEED = 114 / 3.6;
const SPEEDING_KMH = 100;
/** A speeding episode ends after this long above SPEEDING_KMH in one stretch (room for a minimum-duration setting). */
const SPEEDING_EPISODE_S = 12;
const TANK_L = 80;
/** Traction battery: 75 kWh, 11 kW charger, about 20 kWh/100 km. */
const EV_CHARGE_PERCENT_PER_HOUR = (11 / 75) * 100;
const EV_PERCENT_PER_KM = (0.2 / 75) * 100;
const EV_RANGE_KM_PER_PERCENT = 3.2;
const COOLANT_RUNNING_C = 90;
const AMBIENT_C = 15;
const MAX_NORMAL_RPM = 3_900;
const STEP_S = 1;
/** Seconds from an immobiliser's release until the vehicle drives on (the engine starts). */
const RESTART_S = 5;
/** Command ids remembered for de-duplication: far more than a tracker is handed within a command's life. */
const REMEMBERED_COMMANDS = 100;

const isArterial = (segment: RoadSegment | undefined) =>
  segment !== undefined && segment.limitKmh > STREET_LIMIT_KMH;

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** The turn from heading `from` to `to` the shorter way, degrees in (−180, 180]. */
const turnBetween = (from: number, to: number) => {
  const change = (((to - from) % 360) + 360) % 360;
  return change > 180 ? change - 360 : change;
};

/**
 * One vehicle of the simulated fleet: a small state machine over a road network, integrated in
 * one-second steps. Speed changes within acceleration and braking limits (the incidents' harsh
 * manoeuvres aside), so consecutive reports never jump further than the vehicle could drive; the
 * odometer is the sum of the distances actually driven. Its heading turns gradually, so that only a
 * harsh-cornering incident reads as a corner taken hard.
 *
 * Traits drawn once per vehicle make a fleet varied: how far above the limit a driver goes on
 * arterials, its battery's resting voltage, and an engine fault code some vehicles carry; those dealt
 * by place (VehicleTraits) add one of each kind to any small fleet. Incidents (IncidentKind) add what
 * alert rules and the insights' driving events look for.
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
  /** Where the vehicle points, degrees: it follows the road's course gradually (TURN_DEGREES_PER_M). */
  private heading = 0;
  /** The approach (route index) of a junction where a due harsh corner is to be taken. */
  private cornerAt?: number;
  /** Seconds driven past that junction without a report. */
  private cornerWaitS = 0;
  /** A harsh corner under way: turning to `course` at HARSH_TURN_DEGREES_PER_S, the speed held. */
  private harshTurn?: { course: number };
  /**
   * A harsh corner begun before its junction: until the vehicle gets there, its heading stays the
   * next road's (`course`) on the approach (route index `index`).
   */
  private turnedEarly?: { index: number; course: number };
  private odometerM: number;
  private engineHours: number;
  private powerV: number;
  /** Seconds since the engine stopped (the surface charge's age), and since it started. */
  private offS = 0;
  private runningS = 0;
  private batteryLevel: number;
  private fuelL: number;
  private coolantC: number;
  /** The moment of the last engine start, until a report after it has shown the dip. */
  private startedAt?: number;
  /** Fix time of the last report, and the time between the last two: the reporting the vehicle expects. */
  private lastReportAt?: number;
  private reportGapS = 5;
  private time: number;
  /** Simulated time at the start, Unix ms. */
  private readonly startTime: number;
  private paceNoise = 1;
  private paceNoiseLeftS = 0;
  private headForDepot = false;

  /** Simulated seconds since the start: when incidents are due. */
  private elapsedS = 0;
  private readonly due = new Map<IncidentKind, number>();
  private speedingKmh?: number;
  private speedingAboveS = 0;
  private boostLeftS = 0;
  private emergencyStop = false;
  /** A standstill that is over, held until the next report so that the harsh start after it is seen whole. */
  private holdForBoost = false;
  private voltageDip = { leftS: 0, volts: 0 };
  private powerCutLeftS = 0;
  private highRpm = { leftS: 0, rpm: 0 };
  private overheat = { leftS: 0, targetC: 0 };

  /** The vehicle's own door state: commands set it; parking locks, and the driver's return unlocks. */
  private doorsLocked = false;
  /** The engine is cut (an `ignition` command with on: false) until released. */
  private immobilised = false;
  /** Outcomes of the commands carried out, by id: a command handed out again is answered, not redone. */
  private readonly outcomes = new Map<string, CommandStatus>();

  private readonly leadFoot: number;
  private readonly battery: VehicleBattery;
  private readonly faultCode?: string;
  private readonly driver: string;
  /** Measurement noise has its own generator, so how often a vehicle reports never changes how it drives. */
  private readonly noise: Random;
  /** So has the incident schedule, so that the first incidents come at the same times whatever the route. */
  private readonly incidents: Random;

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
    this.incidents = random.fork(0x696e6364);
    this.leadFoot = random.chance(0.4) ? random.between(0.1, 0.32) : random.between(-0.1, 0.05);
    this.battery = new VehicleBattery(
      random.between(...HEALTHY_RESTING_VOLTS),
      traits.weakeningBattery,
      startTime,
    );
    this.faultCode = random.chance(0.1) ? random.pick(['P0300', 'P0171', 'P0420', 'C1234']) : undefined;
    this.driver = `DRV-${String(driverNumber).padStart(4, '0')}`;
    this.odometerM = Math.round(random.between(5_000_000, 150_000_000));
    this.engineHours = Math.round(this.odometerM / 40_000);
    this.batteryLevel = random.between(traits.electric ? 45 : 60, traits.electric ? 95 : 100);
    this.fuelL = TANK_L * random.between(0.3, 0.95);
    this.position = network.position(network.randomNode(random));
    for (const [kind, timing] of Object.entries(INCIDENT_TIMING) as [
      IncidentKind,
      { first: [number, number] },
    ][]) {
      if (this.canHave(kind)) this.due.set(kind, this.incidents.between(...timing.first));
    }
    // Most vehicles are on the road when the simulation starts, so a demo shows movement at once: part
    // of the way along a route already, so that stops (and what happens at them) come soon too.
    if (random.chance(0.7)) {
      this.coolantC = COOLANT_RUNNING_C;
      this.planRoute();
      this.segmentIndex = random.integer(0, Math.floor((this.route.length - 1) / 2));
      this.position = this.route[this.segmentIndex].from;
      this.heading = this.route[this.segmentIndex].course;
      this.enterSegment();
      this.phase = 'driving';
      this.powerV = (ALTERNATOR_VOLTS[0] + ALTERNATOR_VOLTS[1]) / 2;
      this.runningS = 600;
    } else {
      this.coolantC = random.between(20, 70);
      this.phase = 'parked';
      this.phaseLeftS = random.between(30, 600);
      // Parked for a while already: the battery has settled.
      this.offS = 3_600;
      this.powerV = this.battery.parkedVolts(startTime, this.offS);
    }
    this.doorsLocked = this.phase === 'parked';
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
    const known = this.outcomes.get(command.id);
    if (known !== undefined) return known;
    const status = this.carryOut(command);
    if (this.outcomes.size >= REMEMBERED_COMMANDS) this.outcomes.delete(this.outcomes.keys().next().value!);
    this.outcomes.set(command.id, status);
    return status;
  }

  private carryOut(command: DeviceCommand): CommandStatus {
    switch (command.type) {
      case 'doorLock':
        this.doorsLocked = command.lock;
        return 'ok';
      case 'ignition':
        if (command.on) this.release();
        else this.immobilise();
        return 'ok';
      case 'locate':
        return 'ok';
      case 'unsupported':
        return 'failed';
    }
  }

  /** Driving, the vehicle rolls to a stop (drive()); standing with the engine running, it stops at once. */
  private immobilise(): void {
    this.immobilised = true;
    if (this.phase === 'starting' || this.phase === 'waiting') this.stopEngine();
  }

  private stopEngine(): void {
    this.endManoeuvre();
    // Restarting from standing, the vehicle would not reach a harsh corner's speed: it waits for another.
    this.cornerAt = undefined;
    this.holdForBoost = false;
    this.speedMs = 0;
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
    const electric = this.traits.electric;
    return restHistory(
      {
        battery: this.battery,
        electric,
        reportAt: (time, { ignition, powerV, engineSecondsLater }) => ({
          imei: this.imei,
          time,
          lat: round(this.position.lat, 6),
          lng: round(this.position.lng, 6),
          speedKmh: 0,
          course: this.reportedCourse(),
          altitudeM: this.altitude(),
          accuracyM: round(random.between(3, 8), 1),
          hdop: round(random.between(0.7, 1.6), 1),
          satellites: random.integer(7, 12),
          signal: random.integer(3, 5),
          ignition,
          motion: false,
          odometerM: round(this.odometerM, 1),
          engineHours: round(this.engineHours - engineSecondsLater / 3600, 2),
          powerV: round(powerV, 2),
          batteryLevel: round(this.batteryLevel, 1),
          // An electric van stands unplugged overnight: its charge is what it starts with.
          charging: electric ? false : undefined,
          batteryRangeKm: electric ? round(this.batteryLevel * EV_RANGE_KM_PER_PERCENT, 0) : undefined,
          fuelLevel: electric ? undefined : round((this.fuelL / TANK_L) * 100, 1),
          rpm: !electric && ignition ? random.integer(720, 820) : undefined,
          coolantTempC:
            !electric && ignition ? round(random.between(AMBIENT_C - 3, AMBIENT_C + 3), 1) : undefined,
          // Locked overnight; the driver unlocks them to start the engine, and locks them leaving it.
          doorLocked: !ignition,
          engineEnabled: true,
          driver: ignition ? this.driver : undefined,
          dtcCodes: ignition ? this.engineCodesAt(0) : undefined,
        }),
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
    this.startedAt = this.time;
    // The alternator charges as soon as the engine runs.
    this.powerV = this.random.between(...ALTERNATOR_VOLTS);
  }

  private get ignition(): boolean {
    return this.phase !== 'parked' && this.phase !== 'delivering' && this.phase !== 'immobilised';
  }

  private canHave(kind: IncidentKind): boolean {
    if (kind === 'powerCut') return this.traits.loosePowerConnector;
    if (kind === 'highRpm' || kind === 'overheat') return !this.traits.electric;
    return true;
  }

  private isDue(kind: IncidentKind): boolean {
    const at = this.due.get(kind);
    return at !== undefined && at <= this.elapsedS;
  }

  private happened(kind: IncidentKind): void {
    this.due.set(kind, this.elapsedS + this.incidents.between(...INCIDENT_TIMING[kind].gap));
  }

  /**
   * A harsh manoeuvre starts right after a report, so that the next report (at most 5 s later for the
   * harsh-driving rules to judge it) sees the whole change of speed, whatever the report interval.
   * So does a harsh corner, at the report nearest to when its turn would be centred on the junction
   * (the vehicle expects the next report as far ahead as the last one came after the one before).
   */
  private afterReport(): void {
    if (this.cornerAt !== undefined && !this.harshTurn && this.phase === 'driving' && !this.immobilised) {
      const approaching = this.segmentIndex === this.cornerAt;
      const leftS = approaching
        ? (this.route[this.segmentIndex].lengthM - this.alongM) / Math.max(this.speedMs, 0.1)
        : 0;
      const turnS = 90 / HARSH_TURN_DEGREES_PER_S;
      if (leftS <= turnS / 2 + this.reportGapS / 2) {
        const course = this.route[this.cornerAt + 1].course;
        this.harshTurn = { course };
        if (approaching) this.turnedEarly = { index: this.cornerAt, course };
        this.cornerAt = undefined;
      }
    }
    if (this.holdForBoost) {
      this.holdForBoost = false;
      this.phase = 'driving';
      this.boostLeftS = HARSH_ACCELERATION_S;
      this.happened('harshAcceleration');
    } else if (
      this.phase === 'driving' &&
      !this.immobilised &&
      this.isDue('harshBraking') &&
      this.boostLeftS <= 0 &&
      // A harsh corner ahead or under way is taken first.
      this.cornerAt === undefined &&
      !this.harshTurn &&
      // A speeding episode runs its course first: then the stop is from its speed.
      this.speedingKmh === undefined &&
      this.speedMs >= EMERGENCY_STOP_FROM
    ) {
      this.emergencyStop = true;
      this.happened('harshBraking');
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
        this.speedMs = 0;
        this.phaseLeftS -= seconds;
        if (this.phaseLeftS <= 0 && !this.holdForBoost) this.endStandstill();
        break;
      case 'immobilised':
        this.speedMs = 0;
        break;
      case 'driving':
        this.drive(seconds);
        break;
    }
    this.updateEnergy(seconds);
    this.updateEngine(seconds);
    this.elapsedS += seconds;
  }

  /** Incidents that need no particular moment start as soon as they are due and can happen. */
  private startIncidents(): void {
    // A cut and a dip never overlap: a cut tracker would not see the dip.
    if (this.isDue('powerCut') && this.voltageDip.leftS <= 0) {
      this.powerCutLeftS = this.incidents.between(120, 300);
      this.happened('powerCut');
    }
    // Not in the engine's first minute: the cranking dip and the alternator coming up are the start's.
    if (this.isDue('voltageDip') && this.ignition && this.runningS >= 60 && this.powerCutLeftS <= 0) {
      // A slipping alternator belt: the battery alone feeds the vehicle for a while.
      this.voltageDip = {
        leftS: this.incidents.between(90, 180),
        volts: this.incidents.between(11.2, 11.65),
      };
      this.happened('voltageDip');
    }
    if (this.isDue('highRpm') && this.phase === 'driving' && this.speedMs > 30 / 3.6) {
      // Held in a low gear.
      this.highRpm = { leftS: this.incidents.between(20, 40), rpm: this.incidents.between(4_300, 5_200) };
      this.happened('highRpm');
    }
    if (this.isDue('overheat') && this.ignition && this.coolantC > 85) {
      this.overheat = { leftS: this.incidents.between(240, 360), targetC: this.incidents.between(109, 114) };
      this.happened('overheat');
    }
    if (this.isDue('speeding') && this.speedingKmh === undefined) {
      this.speedingKmh = this.incidents.between(106, 112);
      this.speedingAboveS = 0;
    }
  }

  /** Standing with the engine running: a long idle when one is due, else as long as the caller says. */
  private standStill(phase: 'starting' | 'waiting', seconds: number): void {
    this.endManoeuvre();
    this.phase = phase;
    this.phaseLeftS = seconds;
    if (this.isDue('longIdle')) {
      // Waiting at a loading gate with the engine running, past the idling alert's five minutes.
      this.phaseLeftS = this.incidents.between(330, 480);
      this.happened('longIdle');
    }
  }

  private endStandstill(): void {
    // An immobilised engine does not start: the stop lasts until the immobiliser is released.
    if (this.immobilised) return;
    if (this.phase === 'parked' || this.phase === 'delivering') {
      // The driver is back: doors unlocked.
      this.doorsLocked = false;
      // The route is chosen when the engine starts, so that a harsh start can be planned for its first road.
      this.planRoute();
      this.standStill('starting', this.random.between(15, 90));
      return;
    }
    if (this.isDue('harshAcceleration') && this.roomToBoost()) {
      this.holdForBoost = true;
      return;
    }
    this.phase = 'driving';
  }

  private roomToBoost(): boolean {
    const segment = this.route[this.segmentIndex];
    // Not while turning onto the road (after a stop the next route may start the other way).
    const aligned =
      segment !== undefined && Math.abs(turnBetween(this.heading, segment.course)) <= ALIGNED_DEGREES;
    return aligned && isArterial(segment) && segment.lengthM - this.alongM >= BOOST_ROOM_M;
  }

  /** Speeding and harsh driving happen on arterial roads: a vehicle due for one takes a long route. */
  private wantsArterial(): boolean {
    return this.isDue('speeding') || this.isDue('harshBraking') || this.isDue('harshAcceleration');
  }

  private planRoute(): void {
    const from = this.network.nodeAt(this.position);
    let to = this.headForDepot ? this.network.depot() : this.network.randomDestination(this.random);
    this.headForDepot = false;
    for (let tries = 0; tries < 4 && this.wantsArterial() && this.blocks(from, to) <= 6; tries++) {
      to = this.network.randomNode(this.random);
    }
    if (to.row === from.row && to.col === from.col) to = this.network.randomNode(this.random);
    this.route = this.network.route(from, to, this.random);
    this.segmentIndex = 0;
    this.alongM = 0;
    this.cornerAt = undefined;
    this.turnedEarly = undefined;
    this.enterSegment();
  }

  private blocks(from: { row: number; col: number }, to: { row: number; col: number }): number {
    return Math.abs(to.row - from.row) + Math.abs(to.col - from.col);
  }

  private enterSegment(): void {
    const last = this.segmentIndex === this.route.length - 1;
    this.stopAtSegmentEnd = last || this.random.chance(0.12);
    // A red light on an arterial, with more arterial straight ahead: where a due harsh start happens.
    const segment = this.route[this.segmentIndex];
    const next = this.route[this.segmentIndex + 1];
    if (
      this.isDue('harshAcceleration') &&
      isArterial(segment) &&
      isArterial(next) &&
      next.course === segment.course
    ) {
      this.stopAtSegmentEnd = true;
    }
    // A turn at the end of the block, with no red light: where a due harsh corner is taken. A block
    // is long enough to reach its speed, even from standing and turning onto it.
    if (
      this.isDue('harshCornering') &&
      this.cornerAt === undefined &&
      !this.harshTurn &&
      !this.stopAtSegmentEnd &&
      !this.immobilised &&
      next !== undefined &&
      next.course !== segment.course &&
      segment.lengthM - this.alongM >= BOOST_ROOM_M
    ) {
      this.cornerAt = this.segmentIndex;
    }
    if (this.turnedEarly && this.turnedEarly.index < this.segmentIndex) this.turnedEarly = undefined;
  }

  /** The heading the vehicle turns to: its road's, or the next road's when it took that corner early. */
  private roadHeading(): number {
    if (this.turnedEarly?.index === this.segmentIndex) return this.turnedEarly.course;
    return this.route[this.segmentIndex]?.course ?? this.heading;
  }

  private cruiseSpeed(segment: RoadSegment): number {
    // Hurrying towards the corner to be taken harshly, at its speed (no faster: it is no race).
    if (this.cornerAt === this.segmentIndex) return HARSH_CORNER_SPEED;
    const arterial = isArterial(segment);
    const excess = arterial ? this.leadFoot : Math.min(this.leadFoot, 0.05);
    let cruise = ((segment.limitKmh * (1 + excess) * this.paceNoise) / 3.6) * (arterial ? 1 : 0.9);
    if (arterial && this.speedingKmh !== undefined) cruise = Math.max(cruise, this.speedingKmh / 3.6);
    // In a hurry before an emergency stop: fast enough for it to count as harsh.
    if (arterial && this.isDue('harshBraking')) cruise = Math.max(cruise, 92 / 3.6);
    return Math.min(cruise, TOP_SPEED);
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
    const cruise = this.cruiseSpeed(segment);
    const next = this.route[this.segmentIndex + 1];
    const turnAhead =
      next !== undefined && next.course !== segment.course && this.turnedEarly?.index !== this.segmentIndex;
    const turnSpeed = this.cornerAt === this.segmentIndex ? HARSH_CORNER_SPEED : TURN_SPEED;
    const endSpeed = this.stopAtSegmentEnd ? 0 : turnAhead ? turnSpeed : cruise;
    const leftM = segment.lengthM - this.alongM;
    // Past the junction of a harsh corner, waiting for the report to start the turn after.
    const waitingToTurn = this.cornerAt !== undefined && this.segmentIndex > this.cornerAt;
    if (this.immobilised) {
      // The engine is cut: the vehicle rolls to a stop at normal braking, where it is.
      this.speedMs = Math.max(0, this.speedMs - BRAKING * seconds);
    } else if (this.emergencyStop) {
      this.speedMs = Math.max(0, this.speedMs - EMERGENCY_BRAKING * seconds);
    } else if (this.boostLeftS > 0) {
      this.speedMs = Math.min(TOP_SPEED, this.speedMs + HARSH_ACCELERATION * seconds);
      this.boostLeftS -= seconds;
    } else if (this.harshTurn || waitingToTurn) {
      // Through a harsh corner at the speed it was entered with.
    } else {
      let desired = Math.min(cruise, this.brakingLimit(endSpeed, leftM, seconds));
      // Still turning onto the road: no faster than a turn is taken.
      if (Math.abs(turnBetween(this.heading, this.roadHeading())) > ALIGNED_DEGREES) {
        desired = Math.min(desired, TURN_SPEED);
      }
      const change = Math.max(-BRAKING * seconds, Math.min(ACCELERATION * seconds, desired - this.speedMs));
      // Never stand still short of the end of a segment: creep on at walking pace.
      this.speedMs = Math.max(this.speedMs + change, Math.min(1.5, leftM / seconds));
    }
    const travelM = Math.min(this.speedMs * seconds, leftM);
    this.turn(seconds, travelM, waitingToTurn);
    this.alongM += travelM;
    const before = this.position;
    const fraction = this.alongM / segment.lengthM;
    this.position = {
      lat: segment.from.lat + (segment.to.lat - segment.from.lat) * fraction,
      lng: segment.from.lng + (segment.to.lng - segment.from.lng) * fraction,
    };
    this.odometerM += haversineMetres(before, this.position);
    if (this.traits.electric) {
      this.batteryLevel = Math.max(0, this.batteryLevel - (travelM / 1000) * EV_PERCENT_PER_KM);
    } else {
      this.fuelL -= (travelM / 100_000) * (isArterial(segment) ? 8 : 11);
    }
    this.countSpeeding(seconds);
    if (this.immobilised && this.speedMs === 0) {
      this.stopEngine();
      return;
    }
    if (this.emergencyStop && this.speedMs === 0) {
      // Standing in the lane for a moment after the stop, engine running.
      this.standStill('waiting', this.random.between(8, 25));
      return;
    }
    if (this.alongM >= segment.lengthM - 1e-6) {
      this.segmentIndex += 1;
      this.alongM = 0;
      if (this.stopAtSegmentEnd) {
        this.speedMs = 0;
        if (this.segmentIndex >= this.route.length) {
          this.arrive();
        } else {
          this.standStill('waiting', this.random.between(15, 60));
        }
      }
      if (this.segmentIndex < this.route.length) this.enterSegment();
    }
  }

  /**
   * Turns the heading towards the road's: in a harsh corner at HARSH_TURN_DEGREES_PER_S, otherwise by
   * TURN_DEGREES_PER_M of the way driven (standing, a vehicle does not turn). Waiting past a harsh
   * corner's junction, it holds its heading, but not longer than a measurable report interval: then
   * it takes the corner at once.
   */
  private turn(seconds: number, travelM: number, waitingToTurn: boolean): void {
    if (waitingToTurn) {
      this.cornerWaitS += seconds;
      if (this.cornerWaitS < HARSH_CORNER_MAX_WAIT_S) return;
      this.harshTurn = { course: this.route[this.cornerAt! + 1].course };
      this.cornerAt = undefined;
    }
    this.cornerWaitS = 0;
    const target = this.harshTurn?.course ?? this.roadHeading();
    const left = turnBetween(this.heading, target);
    const most = this.harshTurn ? HARSH_TURN_DEGREES_PER_S * seconds : TURN_DEGREES_PER_M * travelM;
    if (Math.abs(left) <= most) {
      this.heading = target;
      if (this.harshTurn) {
        this.harshTurn = undefined;
        this.happened('harshCornering');
      }
    } else {
      this.heading = (this.heading + Math.sign(left) * most + 360) % 360;
    }
  }

  /**
   * The highest speed from which the vehicle still slows to `endSpeed` by the end of the segment at
   * normal braking, in steps of `seconds` (each step travels at its end speed, so stopping takes about
   * 1.5 steps' travel more than v²/2a). Without that margin a vehicle reached stop lines at 30–40 km/h
   * and stood at once, which reports one second apart show as harsh braking.
   */
  private brakingLimit(endSpeed: number, leftM: number, seconds: number): number {
    const step = BRAKING * seconds;
    const room = Math.max(0, leftM - 1);
    return (-3 * step + Math.sqrt(9 * step * step + 4 * (endSpeed * endSpeed + 2 * BRAKING * room))) / 2;
  }

  /** The episode is over once the speed has stayed above the limit long enough in one stretch. */
  private countSpeeding(seconds: number): void {
    if (this.speedingKmh === undefined) return;
    if (this.speedMs * 3.6 <= SPEEDING_KMH) {
      this.speedingAboveS = 0;
      return;
    }
    this.speedingAboveS += seconds;
    if (this.speedingAboveS >= SPEEDING_EPISODE_S) {
      this.speedingKmh = undefined;
      this.happened('speeding');
    }
  }

  /** Standing still ends any harsh manoeuvre (a red light reached while braking hard, say). */
  private endManoeuvre(): void {
    this.emergencyStop = false;
    this.boostLeftS = 0;
  }

  private arrive(): void {
    this.endManoeuvre();
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
    // Parked, the driver locks up; delivering, the doors stay open.
    this.doorsLocked = this.phase === 'parked';
    // Low on fuel (or charge): the next route goes to the depot, where the tank is filled.
    this.headForDepot = this.traits.electric ? this.batteryLevel < 20 : this.fuelL < TANK_L * 0.2;
  }

  /** Electric vehicles charge at every stop with the ignition off (depot and customers' chargers). */
  private get evCharging(): boolean {
    return this.traits.electric && !this.ignition && this.phase !== 'immobilised' && this.batteryLevel < 99.5;
  }

  private updateEnergy(seconds: number): void {
    const hours = seconds / 3600;
    if (this.ignition) {
      this.engineHours += hours;
      if (!this.traits.electric) this.fuelL -= 0.9 * hours;
      const charging =
        this.voltageDip.leftS > 0 ? this.voltageDip.volts : this.random.between(...ALTERNATOR_VOLTS);
      this.powerV += (charging - this.powerV) * Math.min(1, seconds / 5);
      if (!this.traits.electric) this.batteryLevel = Math.min(100, this.batteryLevel + 60 * hours);
      this.offS = 0;
      this.runningS += seconds;
    } else {
      this.runningS = 0;
      // The surface charge fades towards the battery's resting voltage (vehicle-battery.ts).
      this.offS += seconds;
      this.powerV = this.battery.parkedVolts(this.time + seconds * 1000, this.offS);
      if (this.evCharging) {
        this.batteryLevel = Math.min(100, this.batteryLevel + EV_CHARGE_PERCENT_PER_HOUR * hours);
      } else if (!this.traits.electric) {
        this.batteryLevel = Math.max(0, this.batteryLevel - 1.5 * hours);
      }
    }
    this.fuelL = Math.max(0, this.fuelL);
    this.voltageDip.leftS = Math.max(0, this.voltageDip.leftS - seconds);
    this.powerCutLeftS = Math.max(0, this.powerCutLeftS - seconds);
  }

  /** Coolant warms to its running temperature in a few minutes and cools towards the air's when off. */
  private updateEngine(seconds: number): void {
    if (this.traits.electric) return;
    if (this.ignition) {
      const target = this.overheat.leftS > 0 ? this.overheat.targetC : COOLANT_RUNNING_C;
      const rate = this.coolantC < target ? 0.25 : 0.08; // °C/s
      const change = Math.min(Math.abs(target - this.coolantC), rate * seconds);
      this.coolantC += Math.sign(target - this.coolantC) * change;
    } else {
      this.coolantC += (AMBIENT_C - this.coolantC) * (1 - Math.exp(-seconds / 2_400));
    }
    this.overheat.leftS = Math.max(0, this.overheat.leftS - seconds);
    this.highRpm.leftS = Math.max(0, this.highRpm.leftS - seconds);
  }

  private rpm(): number {
    if (this.highRpm.leftS > 0) return this.highRpm.rpm + this.noise.between(-60, 60);
    if (this.boostLeftS > 0) return this.noise.between(3_500, 3_850);
    if (this.speedMs === 0) return this.noise.between(720, 820);
    return Math.min(MAX_NORMAL_RPM, 1_000 + 22 * this.speedMs * 3.6 + this.noise.between(-60, 60));
  }

  /**
   * The supply voltage a report shows: 0 while the tracker's power is cut; at the engine start (or a
   * second after it, for a start no report fell on) the cranking dip of a combustion engine; the
   * battery's voltage otherwise, with a tracker's measurement noise while parked.
   */
  private reportedVolts(): number {
    const ignition = this.ignition;
    const cranking =
      ignition &&
      !this.traits.electric &&
      this.startedAt !== undefined &&
      this.time - this.startedAt <= STEP_S * 1000;
    this.startedAt = undefined;
    if (this.powerCutLeftS > 0) return 0;
    if (cranking) return this.battery.crankingVolts(this.noise);
    return ignition
      ? this.powerV
      : this.powerV + this.noise.between(-RESTING_NOISE_VOLTS, RESTING_NOISE_VOLTS);
  }

  /** The heading in whole degrees, 0–359, as trackers report it (and the platform stores it). */
  private reportedCourse(): number {
    return Math.round(this.heading) % 360;
  }

  private altitude(): number {
    return round(34 + 12 * Math.sin(this.position.lat * 900) + 8 * Math.cos(this.position.lng * 700), 1);
  }

  /** The trouble codes the engine reports `elapsedS` after the simulation's start. */
  private engineCodesAt(elapsedS: number): string[] | undefined {
    if (this.traits.engineCodes) {
      return elapsedS < ENGINE_CODE_CLEARED_AFTER_S ? [...ENGINE_CODES] : ENGINE_CODES.slice(1);
    }
    return this.faultCode ? [this.faultCode] : undefined;
  }

  private report(): SimulatedReport {
    if (this.lastReportAt !== undefined && this.time > this.lastReportAt) {
      this.reportGapS = (this.time - this.lastReportAt) / 1000;
    }
    this.lastReportAt = this.time;
    const inArea = this.network.areasAt(this.position).length > 0;
    const powerV = this.reportedVolts();
    const ignition = this.ignition;
    const electric = this.traits.electric;
    const charging = this.evCharging;
    return {
      imei: this.imei,
      time: this.time,
      lat: round(this.position.lat, 6),
      lng: round(this.position.lng, 6),
      speedKmh: round(this.speedMs * 3.6, 1),
      course: this.reportedCourse(),
      altitudeM: this.altitude(),
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
      charging: electric ? charging : undefined,
      chargerPowerKw: charging ? 11 : undefined,
      batteryRangeKm: electric ? round(this.batteryLevel * EV_RANGE_KM_PER_PERCENT, 0) : undefined,
      fuelLevel: electric ? undefined : round((this.fuelL / TANK_L) * 100, 1),
      rpm: !electric && ignition ? Math.round(this.rpm()) : undefined,
      coolantTempC:
        !electric && ignition ? round(this.coolantC + this.noise.between(-0.4, 0.4), 1) : undefined,
      doorLocked: this.doorsLocked,
      engineEnabled: !this.immobilised,
      driver: ignition ? this.driver : undefined,
      dtcCodes: ignition ? this.engineCodesAt(this.elapsedS) : undefined,
    };
  }
}
