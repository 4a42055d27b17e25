import { PositionReportedV1 } from '@fleet/contracts';
import { DrivingEventObservation } from '@fleet/motion';
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import {
  ActivityFigures,
  addActivity,
  advanceInsights,
  InsightState,
  quarterOf,
  TROUBLE_CODE,
} from './insight-state';
import {
  ActivityRow,
  DrivingEventRow,
  EngineCodeSighting,
  InsightProjectionQueries,
} from './insight-projection.queries';

/**
 * A fix with its place in the vehicle's order in epoch milliseconds (`fixOrderMs`: its fix time, or its
 * arrival when a clock ahead put the fix after it), computed once.
 */
export interface TimedFix {
  event: PositionReportedV1;
  orderMs: number;
}

/** One vehicle's insights from the fixes of a batch that advanced its last position. */
export interface VehicleInsights {
  vehicleId: number;
  /** The state to store with the new last position. */
  state: InsightState;
  /** Figures per quarter hour (epoch ms of its start). */
  activity: Map<number, ActivityFigures>;
  /** One observation per event (the strongest of the batch). */
  events: DrivingEventObservation[];
}

/** A stored state, or a fresh one for a vehicle without (or with something unreadable). */
function storedState(stored: unknown): InsightState {
  return stored !== null && typeof stored === 'object' && !Array.isArray(stored)
    ? (stored as InsightState)
    : {};
}

/**
 * The insights' part of the position projection (docs/insights.md): runs insight-state over a
 * vehicle's new fixes, then writes what they add in the projection's transaction: the quarter hours
 * of `vehicle_activity` (added to what is there), driving events (one row per episode, keeping its
 * strongest observation) and engine codes (first and last seen); resting samples are also summed
 * per hour (`vehicle_rest_hours`). Fixes are projected once (history
 * de-duplicates them first), so adding is safe.
 */
@Injectable()
export class InsightProjection {
  private readonly movingSpeedKmh: number;
  private readonly queries = new InsightProjectionQueries();

  constructor(@Inject(QUERY_API_CONFIG) config: QueryApiConfig) {
    this.movingSpeedKmh = config.motion.movingSpeedKmh;
  }

  /** Pure: `fixes` are the vehicle's fixes newer than its last position, in the vehicle's order. */
  advance(vehicleId: number, stored: unknown, fixes: readonly TimedFix[]): VehicleInsights {
    let state = storedState(stored);
    const activity = new Map<number, ActivityFigures>();
    const events = new Map<string, DrivingEventObservation>();
    for (const { event: fix, orderMs: timeMs } of fixes) {
      const step = advanceInsights(
        state,
        {
          timeMs,
          lat: fix.lat,
          lng: fix.lng,
          speedKmh: fix.speedKmh,
          course: fix.course,
          ignition: fix.ignition,
          powerV: fix.powerV,
          dtcCodes: fix.dtcCodes,
        },
        this.movingSpeedKmh,
      );
      state = step.state;
      const quarter = quarterOf(timeMs);
      const sofar = activity.get(quarter);
      activity.set(quarter, sofar ? addActivity(sofar, step.figures) : step.figures);
      for (const event of step.events) {
        const key = `${event.at}:${event.kind}`;
        const kept = events.get(key);
        if (!kept || event.peak > kept.peak) events.set(key, event);
      }
    }
    return { vehicleId, state, activity, events: [...events.values()] };
  }

  /** Writes the batch's insights; `fixes` are all its newly stored fixes (late ones too, for engine codes). */
  async write(
    manager: EntityManager,
    vehicles: readonly VehicleInsights[],
    fixes: readonly PositionReportedV1[],
  ): Promise<void> {
    await this.writeActivity(manager, vehicles);
    await this.writeEvents(manager, vehicles);
    await this.writeEngineCodes(manager, fixes);
  }

  private async writeActivity(manager: EntityManager, vehicles: readonly VehicleInsights[]): Promise<void> {
    const rows = vehicles.flatMap(({ vehicleId, activity }): ActivityRow[] =>
      [...activity.entries()]
        .filter(([, figures]) => hasFigures(figures))
        .map(([quarter, figures]) => ({
          vehicle_id: vehicleId,
          quarter: new Date(quarter).toISOString(),
          distance_m: figures.distanceM,
          driving_s: figures.drivingS,
          speeding_s: figures.speedingS,
          idle_s: figures.idleS,
          rest_count: figures.restCount,
          rest_sum_v: figures.restSumV,
          rest_last_v: figures.restLast?.volts ?? null,
          rest_last_at: figures.restLast ? new Date(figures.restLast.timeMs).toISOString() : null,
          crank_count: figures.crankCount,
          crank_min_v: figures.crankMinV ?? null,
          starts: figures.starts,
        })),
    );
    if (rows.length) await this.queries.addActivity(manager, rows);
  }

  private async writeEvents(manager: EntityManager, vehicles: readonly VehicleInsights[]): Promise<void> {
    const rows = vehicles.flatMap(({ vehicleId, events }) =>
      events.map((event): DrivingEventRow => ({
        vehicle_id: vehicleId,
        occurred_at: new Date(event.at).toISOString(),
        kind: event.kind,
        severity: event.severity,
        peak: event.peak,
        speed_kmh: event.speedKmh ?? null,
      })),
    );
    if (rows.length) await this.queries.keepDrivingEvents(manager, rows);
  }

  private async writeEngineCodes(
    manager: EntityManager,
    fixes: readonly PositionReportedV1[],
  ): Promise<void> {
    const seen = new Map<string, EngineCodeSighting>();
    for (const fix of fixes) {
      for (const code of new Set((fix.dtcCodes ?? []).filter((code) => TROUBLE_CODE.test(code)))) {
        const key = `${fix.vehicleId}:${code}`;
        const row = seen.get(key);
        const at = new Date(fix.fixTime).toISOString();
        if (!row) seen.set(key, { vehicle_id: fix.vehicleId, code, first_seen: at, last_seen: at });
        else {
          if (at < row.first_seen) row.first_seen = at;
          if (at > row.last_seen) row.last_seen = at;
        }
      }
    }
    if (seen.size) await this.queries.keepEngineCodes(manager, [...seen.values()]);
  }
}

function hasFigures(figures: ActivityFigures): boolean {
  return (
    figures.distanceM > 0 ||
    figures.drivingS > 0 ||
    figures.idleS > 0 ||
    figures.restCount > 0 ||
    figures.crankCount > 0 ||
    figures.starts > 0
  );
}
