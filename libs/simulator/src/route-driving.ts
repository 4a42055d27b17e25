import { haversineMetres, LatLng } from '@fleet/geo';
import type { FuelAndCharge } from './fuel-and-charge';
import {
  HARSH_CORNER_SPEED,
  HARSH_MANOEUVRE_ROOM_M,
  HARSH_TURN_DEGREES_PER_S,
  HarshCorner,
} from './harsh-corner';
import type { IncidentSchedule } from './incident-schedule';
import { Random } from './random';
import { RoadNetwork, RoadSegment, STREET_LIMIT_KMH } from './road-network';
import { SpeedIncidents, TOP_SPEED } from './speed-incidents';

const ACCELERATION = 1.8; // m/s²
const BRAKING = 2.5; // m/s²
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

const isArterial = (segment: RoadSegment | undefined) =>
  segment !== undefined && segment.limitKmh > STREET_LIMIT_KMH;

/** The turn from heading `from` to `to` the shorter way, degrees in (−180, 180]. */
const turnBetween = (from: number, to: number) => {
  const change = (((to - from) % 360) + 360) % 360;
  return change > 180 ? change - 360 : change;
};

/** How a step of driving ended: driving on, or standing, for the vehicle's phase to follow. */
export type DriveOutcome =
  | { kind: 'drivingOn' }
  /** At the end of the route. */
  | { kind: 'arrived' }
  /** Rolled to a stop with the engine cut by the immobiliser. */
  | { kind: 'cutOff' }
  /** Standing with the engine running (a red light, the moment after an emergency stop) this long. */
  | { kind: 'waiting'; seconds: number };

/** Where a vehicle starts: its driver's temperament and its place. */
export interface DrivingStart {
  /** How far above the limit the driver goes on arterials (a fraction of it; below 0, below it). */
  leadFoot: number;
  odometerM: number;
  position: LatLng;
}

/**
 * How a vehicle drives its routes over the road network, in steps of a second or less: speed within
 * acceleration and braking limits (the incidents' harsh manoeuvres aside), so consecutive reports
 * never jump further than the vehicle could drive; a heading that turns gradually, so that only a
 * harsh corner (harsh-corner.ts) reads as one taken hard; an odometer that sums the distances actually
 * driven. The manoeuvres of the driving incidents are its own: speeding, harsh braking and harsh
 * acceleration on arterials, and harsh cornering.
 */
export class RouteDriving {
  private position: LatLng;
  private route: RoadSegment[] = [];
  private segmentIndex = 0;
  private alongM = 0;
  private stopAtSegmentEnd = false;
  private speedMs = 0;
  /** Where the vehicle points, degrees: it follows the road's course gradually (TURN_DEGREES_PER_M). */
  private heading = 0;
  private odometerM: number;
  private paceNoise = 1;
  private paceNoiseLeftS = 0;
  /** Set at a stop, low on fuel or charge: the next route goes to the depot. */
  headForDepot = false;
  private readonly leadFoot: number;
  private readonly corner: HarshCorner;
  private readonly speedIncidents: SpeedIncidents;

  /** `random` is the vehicle's generator: routes, stops, the driver's pace. */
  constructor(
    private readonly network: RoadNetwork,
    private readonly random: Random,
    private readonly schedule: IncidentSchedule,
    private readonly energy: FuelAndCharge,
    start: DrivingStart,
  ) {
    this.leadFoot = start.leadFoot;
    this.odometerM = start.odometerM;
    this.position = start.position;
    this.corner = new HarshCorner(schedule);
    this.speedIncidents = new SpeedIncidents(schedule);
  }

  get currentPosition(): LatLng {
    return this.position;
  }

  get currentSpeedMs(): number {
    return this.speedMs;
  }

  get currentHeading(): number {
    return this.heading;
  }

  get currentOdometerM(): number {
    return this.odometerM;
  }

  /** Under way with a harsh acceleration. */
  get boosting(): boolean {
    return this.speedIncidents.boosting;
  }

  /**
   * On the road at the simulation's start: part of the way along a route already, so that stops (and
   * what happens at them) come soon too.
   */
  startPartWay(): void {
    this.planRoute();
    this.segmentIndex = this.random.integer(0, Math.floor((this.route.length - 1) / 2));
    this.position = this.route[this.segmentIndex].from;
    this.heading = this.route[this.segmentIndex].course;
    this.enterSegment(false);
  }

  /**
   * The next route, from where the vehicle stands: to the depot when it is to go there, a long one
   * when a driving incident is due (SpeedIncidents.wantArterial). Planned only for an engine that
   * starts (never immobilised).
   */
  planRoute(): void {
    const from = this.network.nodeAt(this.position);
    let to = this.headForDepot ? this.network.depot() : this.network.randomDestination(this.random);
    this.headForDepot = false;
    // Speeding and harsh driving happen on arterial roads: a vehicle due for one takes a long route.
    for (
      let tries = 0;
      tries < 4 && this.speedIncidents.wantArterial && this.blocks(from, to) <= 6;
      tries++
    ) {
      to = this.network.randomNode(this.random);
    }
    if (to.row === from.row && to.col === from.col) to = this.network.randomNode(this.random);
    this.route = this.network.route(from, to, this.random);
    this.segmentIndex = 0;
    this.alongM = 0;
    this.corner.newRoute();
    this.enterSegment(false);
  }

  /** Standing (a stop of any kind). */
  stand(): void {
    this.speedMs = 0;
  }

  /** Standing still ends any harsh manoeuvre (a red light reached while braking hard, say). */
  endManoeuvre(): void {
    this.speedIncidents.end();
  }

  /** The engine was stopped (by the immobiliser) where the vehicle stands. */
  engineStopped(): void {
    this.endManoeuvre();
    this.corner.forget();
    this.speedMs = 0;
  }

  /** The speeding episode, once due: the driver goes that fast on the next arterials. */
  startSpeeding(): void {
    this.speedIncidents.startSpeeding();
  }

  /** Room for a harsh start: on an arterial, aligned with it, with HARSH_MANOEUVRE_ROOM_M ahead. */
  roomToBoost(): boolean {
    const segment = this.route[this.segmentIndex];
    // Not while turning onto the road (after a stop the next route may start the other way).
    const aligned =
      segment !== undefined && Math.abs(turnBetween(this.heading, segment.course)) <= ALIGNED_DEGREES;
    return aligned && isArterial(segment) && segment.lengthM - this.alongM >= HARSH_MANOEUVRE_ROOM_M;
  }

  /** A harsh acceleration, right after a report (the standstill before it was held for one). */
  startBoost(): void {
    this.speedIncidents.startBoost();
  }

  /**
   * Right after a report, driving (the engine free): a harsh corner starts at the report nearest to
   * its junction (harsh-corner.ts).
   */
  cornerAfterReport(reportGapS: number): void {
    this.corner.afterReport(this.route, this.segmentIndex, this.alongM, this.speedMs, reportGapS);
  }

  /** Right after a report, driving (the engine free): an emergency stop, once due (speed-incidents.ts). */
  brakeIfDue(): void {
    this.speedIncidents.brakeIfDue(this.speedMs, this.corner.pending);
  }

  /** Drives on for `seconds` (the engine cut while `immobilised`: rolling to a stop). */
  drive(seconds: number, immobilised: boolean): DriveOutcome {
    const segment = this.route[this.segmentIndex];
    if (!segment) return { kind: 'arrived' };
    this.paceNoiseLeftS -= seconds;
    if (this.paceNoiseLeftS <= 0) {
      this.paceNoise = this.random.between(0.93, 1.05);
      this.paceNoiseLeftS = this.random.between(10, 40);
    }
    const cruise = this.cruiseSpeed(segment);
    const next = this.route[this.segmentIndex + 1];
    const turnAhead =
      next !== undefined &&
      next.course !== segment.course &&
      this.corner.earlyCourse(this.segmentIndex) === undefined;
    const turnSpeed = this.corner.approaches(this.segmentIndex) ? HARSH_CORNER_SPEED : TURN_SPEED;
    const endSpeed = this.stopAtSegmentEnd ? 0 : turnAhead ? turnSpeed : cruise;
    const leftM = segment.lengthM - this.alongM;
    // Past the junction of a harsh corner, waiting for the report to start the turn after.
    const waitingToTurn = this.corner.waitsPast(this.segmentIndex);
    if (immobilised) {
      // The engine is cut: the vehicle rolls to a stop at normal braking, where it is.
      this.speedMs = Math.max(0, this.speedMs - BRAKING * seconds);
    } else if (this.speedIncidents.underWay) {
      this.speedMs = this.speedIncidents.speedAfter(this.speedMs, seconds);
    } else if (this.corner.turningTo !== undefined || waitingToTurn) {
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
    this.energy.drove(travelM, isArterial(segment));
    this.speedIncidents.countSpeeding(this.speedMs, seconds);
    if (immobilised && this.speedMs === 0) return { kind: 'cutOff' };
    if (this.speedIncidents.stopping && this.speedMs === 0) {
      // Standing in the lane for a moment after the stop, engine running.
      return { kind: 'waiting', seconds: this.random.between(8, 25) };
    }
    if (this.alongM < segment.lengthM - 1e-6) return { kind: 'drivingOn' };
    this.segmentIndex += 1;
    this.alongM = 0;
    let outcome: DriveOutcome = { kind: 'drivingOn' };
    if (this.stopAtSegmentEnd) {
      this.speedMs = 0;
      outcome =
        this.segmentIndex >= this.route.length
          ? { kind: 'arrived' }
          : { kind: 'waiting', seconds: this.random.between(15, 60) };
    }
    if (this.segmentIndex < this.route.length) this.enterSegment(immobilised);
    return outcome;
  }

  private enterSegment(immobilised: boolean): void {
    const last = this.segmentIndex === this.route.length - 1;
    this.stopAtSegmentEnd = last || this.random.chance(0.12);
    // A red light on an arterial, with more arterial straight ahead: where a due harsh start happens.
    const segment = this.route[this.segmentIndex];
    const next = this.route[this.segmentIndex + 1];
    if (
      this.schedule.isDue('harshAcceleration') &&
      isArterial(segment) &&
      isArterial(next) &&
      next.course === segment.course
    ) {
      this.stopAtSegmentEnd = true;
    }
    // A turn at the end of the block, with no red light: where a due harsh corner is taken.
    if (!this.stopAtSegmentEnd && !immobilised) {
      this.corner.planAt(this.route, this.segmentIndex, this.alongM);
    }
    this.corner.entered(this.segmentIndex);
  }

  /** The heading the vehicle turns to: its road's, or the next road's when it took that corner early. */
  private roadHeading(): number {
    return (
      this.corner.earlyCourse(this.segmentIndex) ?? this.route[this.segmentIndex]?.course ?? this.heading
    );
  }

  private cruiseSpeed(segment: RoadSegment): number {
    // Hurrying towards the corner to be taken harshly, at its speed (no faster: it is no race).
    if (this.corner.approaches(this.segmentIndex)) return HARSH_CORNER_SPEED;
    const arterial = isArterial(segment);
    const excess = arterial ? this.leadFoot : Math.min(this.leadFoot, 0.05);
    let cruise = ((segment.limitKmh * (1 + excess) * this.paceNoise) / 3.6) * (arterial ? 1 : 0.9);
    if (arterial) cruise = this.speedIncidents.arterialCruise(cruise);
    return Math.min(cruise, TOP_SPEED);
  }

  /**
   * Turns the heading towards the road's: in a harsh corner at HARSH_TURN_DEGREES_PER_S, otherwise by
   * TURN_DEGREES_PER_M of the way driven (standing, a vehicle does not turn). Waiting past a harsh
   * corner's junction, it holds its heading for a while (HarshCorner.holdsHeading).
   */
  private turn(seconds: number, travelM: number, waitingToTurn: boolean): void {
    if (this.corner.holdsHeading(seconds, this.route, waitingToTurn)) return;
    const harshCourse = this.corner.turningTo;
    const target = harshCourse ?? this.roadHeading();
    const left = turnBetween(this.heading, target);
    const most =
      harshCourse !== undefined ? HARSH_TURN_DEGREES_PER_S * seconds : TURN_DEGREES_PER_M * travelM;
    if (Math.abs(left) <= most) {
      this.heading = target;
      if (harshCourse !== undefined) this.corner.turned();
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

  private blocks(from: { row: number; col: number }, to: { row: number; col: number }): number {
    return Math.abs(to.row - from.row) + Math.abs(to.col - from.col);
  }
}
