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

  constructor(@Inject(QUERY_API_CONFIG) config: QueryApiConfig) {
    this.movingSpeedKmh = config.motion.movingSpeedKmh;
  }

  /** Pure: `fixes` are the vehicle's fixes newer than its last position, in fix-time order. */
  advance(vehicleId: number, stored: unknown, fixes: readonly PositionReportedV1[]): VehicleInsights {
    let state = storedState(stored);
    const activity = new Map<number, ActivityFigures>();
    const events = new Map<string, DrivingEventObservation>();
    for (const fix of fixes) {
      const timeMs = new Date(fix.fixTime).getTime();
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
    const rows = vehicles.flatMap(({ vehicleId, activity }) =>
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
    if (!rows.length) return;
    // One statement: the quarter hours, and their resting samples summed per hour into
    // vehicle_rest_hours (what battery health reads; the hour is UTC whatever the session's zone).
    await manager.query(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS row(vehicle_id int, quarter timestamptz, distance_m float8,
              driving_s float8, speeding_s float8, idle_s float8, rest_count int, rest_sum_v float8, rest_last_v real,
              rest_last_at timestamptz, crank_count int, crank_min_v real, starts int)),
       activity AS (
       INSERT INTO query.vehicle_activity AS va
         (vehicle_id, quarter, distance_m, driving_s, speeding_s, idle_s, rest_count, rest_sum_v, rest_last_v,
          rest_last_at, crank_count, crank_min_v, starts)
       SELECT * FROM input
       ON CONFLICT (vehicle_id, quarter) DO UPDATE SET
         distance_m = va.distance_m + EXCLUDED.distance_m, driving_s = va.driving_s + EXCLUDED.driving_s,
         speeding_s = va.speeding_s + EXCLUDED.speeding_s, idle_s = va.idle_s + EXCLUDED.idle_s,
         rest_count = va.rest_count + EXCLUDED.rest_count, rest_sum_v = va.rest_sum_v + EXCLUDED.rest_sum_v,
         rest_last_v = CASE WHEN EXCLUDED.rest_last_at >= va.rest_last_at OR va.rest_last_at IS NULL
                            THEN COALESCE(EXCLUDED.rest_last_v, va.rest_last_v) ELSE va.rest_last_v END,
         rest_last_at = GREATEST(va.rest_last_at, EXCLUDED.rest_last_at),
         crank_count = va.crank_count + EXCLUDED.crank_count,
         crank_min_v = LEAST(va.crank_min_v, EXCLUDED.crank_min_v),
         starts = va.starts + EXCLUDED.starts)
       INSERT INTO query.vehicle_rest_hours AS rh
         (vehicle_id, hour, rest_count, rest_sum_v, first_quarter, last_quarter, rest_last_v, rest_last_at)
       SELECT vehicle_id, date_trunc('hour', quarter AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sum(rest_count),
              sum(rest_sum_v), min(quarter), max(quarter), (array_agg(rest_last_v ORDER BY rest_last_at DESC))[1],
              max(rest_last_at)
         FROM input WHERE rest_count > 0 AND rest_last_at IS NOT NULL
        GROUP BY 1, 2
       ON CONFLICT (vehicle_id, hour) DO UPDATE SET
         rest_count = rh.rest_count + EXCLUDED.rest_count, rest_sum_v = rh.rest_sum_v + EXCLUDED.rest_sum_v,
         first_quarter = LEAST(rh.first_quarter, EXCLUDED.first_quarter),
         last_quarter = GREATEST(rh.last_quarter, EXCLUDED.last_quarter),
         rest_last_v = CASE WHEN EXCLUDED.rest_last_at >= rh.rest_last_at THEN EXCLUDED.rest_last_v ELSE rh.rest_last_v END,
         rest_last_at = GREATEST(rh.rest_last_at, EXCLUDED.rest_last_at)`,
      [JSON.stringify(rows)],
    );
  }

  private async writeEvents(manager: EntityManager, vehicles: readonly VehicleInsights[]): Promise<void> {
    const rows = vehicles.flatMap(({ vehicleId, events }) =>
      events.map((event) => ({
        vehicle_id: vehicleId,
        occurred_at: new Date(event.at).toISOString(),
        kind: event.kind,
        severity: event.severity,
        peak: event.peak,
        speed_kmh: event.speedKmh ?? null,
      })),
    );
    if (!rows.length) return;
    await manager.query(
      `INSERT INTO query.driving_events AS de (vehicle_id, occurred_at, kind, severity, peak, speed_kmh)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS row(vehicle_id int, occurred_at timestamptz, kind text,
            severity text, peak real, speed_kmh real)
       ON CONFLICT (vehicle_id, occurred_at, kind) DO UPDATE SET
         severity = CASE WHEN EXCLUDED.peak > de.peak THEN EXCLUDED.severity ELSE de.severity END,
         speed_kmh = CASE WHEN EXCLUDED.peak > de.peak THEN EXCLUDED.speed_kmh ELSE de.speed_kmh END,
         peak = GREATEST(de.peak, EXCLUDED.peak)`,
      [JSON.stringify(rows)],
    );
  }

  private async writeEngineCodes(
    manager: EntityManager,
    fixes: readonly PositionReportedV1[],
  ): Promise<void> {
    const seen = new Map<
      string,
      { vehicle_id: number; code: string; first_seen: string; last_seen: string }
    >();
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
    if (!seen.size) return;
    await manager.query(
      `INSERT INTO query.vehicle_engine_codes AS ec (vehicle_id, code, first_seen, last_seen)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS row(vehicle_id int, code text, first_seen timestamptz,
            last_seen timestamptz)
       ON CONFLICT (vehicle_id, code) DO UPDATE SET
         first_seen = LEAST(ec.first_seen, EXCLUDED.first_seen), last_seen = GREATEST(ec.last_seen, EXCLUDED.last_seen)`,
      [JSON.stringify([...seen.values()])],
    );
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
