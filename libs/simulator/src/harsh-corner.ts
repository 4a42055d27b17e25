import type { IncidentSchedule } from './incident-schedule';
import { RoadSegment } from './road-network';

/**
 * A harsh corner: a turn taken at this speed (held through the turn) at HARSH_TURN_DEGREES_PER_S,
 * 0.63 g of lateral acceleration; two fixes up to 5 s apart around it read at least 0.57 g.
 */
export const HARSH_CORNER_SPEED = 64 / 3.6;
export const HARSH_TURN_DEGREES_PER_S = 20;
/** Longest wait past a harsh corner's junction for a report to start the turn after (HARSH_EVENT_MAX_GAP_MS). */
const HARSH_CORNER_MAX_WAIT_S = 5;
/**
 * Room a harsh manoeuvre needs ahead on its segment: a harsh start, so that normal braking still stops
 * it at the segment's end, and the block before a harsh corner's junction, so that the vehicle reaches
 * the corner's speed even from standing and turning onto it.
 */
export const HARSH_MANOEUVRE_ROOM_M = 300;

/**
 * The harsh-cornering incident of a vehicle on its route, from choosing the junction to the turn: the
 * vehicle hurries towards a junction where its route turns, and the turn starts right after a report,
 * at the report nearest to when the turn would be centred on the junction, so that the next report
 * sees it whole (route-driving.ts drives it; this keeps where and when).
 */
export class HarshCorner {
  /** The approach (route index) of a junction where a due harsh corner is to be taken. */
  private cornerAt?: number;
  /** Seconds driven past that junction without a report. */
  private waitS = 0;
  /** A harsh corner under way: turning to `course` at HARSH_TURN_DEGREES_PER_S, the speed held. */
  private harshTurn?: { course: number };
  /**
   * A harsh corner begun before its junction: until the vehicle gets there, its heading stays the
   * next road's (`course`) on the approach (route index `index`).
   */
  private turnedEarly?: { index: number; course: number };

  constructor(private readonly schedule: IncidentSchedule) {}

  /**
   * Entering the route's segment `index`, `alongM` along it, without a stop at its end: a turn at the
   * end of the block is where a due harsh corner is taken.
   */
  planAt(route: RoadSegment[], index: number, alongM: number): void {
    const segment = route[index];
    const next = route[index + 1];
    if (
      this.schedule.isDue('harshCornering') &&
      this.cornerAt === undefined &&
      !this.harshTurn &&
      next !== undefined &&
      next.course !== segment.course &&
      segment.lengthM - alongM >= HARSH_MANOEUVRE_ROOM_M
    ) {
      this.cornerAt = index;
    }
  }

  /** Entered the route's segment `index`: an early turn onto it is over. */
  entered(index: number): void {
    if (this.turnedEarly && this.turnedEarly.index < index) this.turnedEarly = undefined;
  }

  /** A new route: no junction chosen, no turn taken early. */
  newRoute(): void {
    this.cornerAt = undefined;
    this.turnedEarly = undefined;
  }

  /**
   * The engine stopped: restarting from standing, the vehicle would not reach the corner's speed. It
   * waits for another.
   */
  forget(): void {
    this.cornerAt = undefined;
  }

  /** A harsh corner is ahead or under way. */
  get pending(): boolean {
    return this.cornerAt !== undefined || this.harshTurn !== undefined;
  }

  /** The course a harsh corner under way turns to. */
  get turningTo(): number | undefined {
    return this.harshTurn?.course;
  }

  /** On segment `index` the vehicle approaches the junction of the corner (at its speed). */
  approaches(index: number): boolean {
    return this.cornerAt === index;
  }

  /** On segment `index` the vehicle is past the corner's junction, waiting for a report to turn after. */
  waitsPast(index: number): boolean {
    return this.cornerAt !== undefined && index > this.cornerAt;
  }

  /** The next road's course, if the vehicle took the corner at the end of segment `index` early. */
  earlyCourse(index: number): number | undefined {
    return this.turnedEarly?.index === index ? this.turnedEarly.course : undefined;
  }

  /**
   * Right after a report, driving `speedMs` on segment `index` of `route`, `alongM` along it: starts
   * the turn if this report is the one nearest to when it would be centred on the junction (the
   * vehicle expects the next report `reportGapS` ahead, as far as the last one came after the one
   * before).
   */
  afterReport(
    route: RoadSegment[],
    index: number,
    alongM: number,
    speedMs: number,
    reportGapS: number,
  ): void {
    if (this.cornerAt === undefined || this.harshTurn) return;
    const approaching = index === this.cornerAt;
    const leftS = approaching ? (route[index].lengthM - alongM) / Math.max(speedMs, 0.1) : 0;
    const turnS = 90 / HARSH_TURN_DEGREES_PER_S;
    if (leftS <= turnS / 2 + reportGapS / 2) {
      const course = route[this.cornerAt + 1].course;
      this.harshTurn = { course };
      if (approaching) this.turnedEarly = { index: this.cornerAt, course };
      this.cornerAt = undefined;
    }
  }

  /**
   * Past the junction the vehicle holds its heading while `waitingToTurn`, but not longer than a
   * measurable report interval: then it takes the corner at once. True while it holds it.
   */
  holdsHeading(seconds: number, route: RoadSegment[], waitingToTurn: boolean): boolean {
    if (waitingToTurn) {
      this.waitS += seconds;
      if (this.waitS < HARSH_CORNER_MAX_WAIT_S) return true;
      this.harshTurn = { course: route[this.cornerAt! + 1].course };
      this.cornerAt = undefined;
    }
    this.waitS = 0;
    return false;
  }

  /** The harsh turn reached its course: the incident happened. */
  turned(): void {
    this.harshTurn = undefined;
    this.schedule.happened('harshCornering');
  }
}
