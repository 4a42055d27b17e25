import { Random } from './random';
import type { VehicleTraits } from './vehicle-traits';

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

/** Whether a vehicle of these traits goes through incidents of this kind at all. */
function canHave(kind: IncidentKind, traits: VehicleTraits): boolean {
  if (kind === 'powerCut') return traits.loosePowerConnector;
  if (kind === 'highRpm' || kind === 'overheat') return !traits.electric;
  return true;
}

/**
 * When a vehicle's incidents are due, on the simulation's clock. It draws from a generator of its own,
 * so that the first incidents come at the same times whatever the route; the episodes' own figures
 * (how long, how high: `between`) come from it too.
 */
export class IncidentSchedule {
  private elapsed = 0;
  private readonly due = new Map<IncidentKind, number>();

  constructor(
    private readonly random: Random,
    traits: VehicleTraits,
  ) {
    for (const [kind, timing] of Object.entries(INCIDENT_TIMING) as [
      IncidentKind,
      { first: [number, number] },
    ][]) {
      if (canHave(kind, traits)) this.due.set(kind, random.between(...timing.first));
    }
  }

  /** Simulated seconds since the start: when incidents are due. */
  get elapsedS(): number {
    return this.elapsed;
  }

  /** The simulation moved on by `seconds`. */
  tick(seconds: number): void {
    this.elapsed += seconds;
  }

  isDue(kind: IncidentKind): boolean {
    const at = this.due.get(kind);
    return at !== undefined && at <= this.elapsed;
  }

  /** An episode of `kind` happened: the next one is due a gap later. */
  happened(kind: IncidentKind): void {
    this.due.set(kind, this.elapsed + this.random.between(...INCIDENT_TIMING[kind].gap));
  }

  /** A figure of an episode (its length, its level) in [min, max), from the schedule's generator. */
  between(min: number, max: number): number {
    return this.random.between(min, max);
  }
}
