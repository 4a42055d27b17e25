import { DrivingEventKind, DrivingEventSeverity } from '@fleet/motion';
import { EntityManager } from 'typeorm';

/** A quarter hour's figures to add to `query.vehicle_activity`, as the JSON document the statement unpacks. */
export interface ActivityRow {
  vehicle_id: number;
  /** ISO time of the quarter hour's start. */
  quarter: string;
  distance_m: number;
  driving_s: number;
  speeding_s: number;
  idle_s: number;
  rest_count: number;
  rest_sum_v: number;
  rest_last_v: number | null;
  rest_last_at: string | null;
  crank_count: number;
  crank_min_v: number | null;
  starts: number;
}

/** A driving event observation to keep in `query.driving_events` (the strongest per episode wins). */
export interface DrivingEventRow {
  vehicle_id: number;
  occurred_at: string;
  kind: DrivingEventKind;
  severity: DrivingEventSeverity;
  peak: number;
  speed_kmh: number | null;
}

/** A trouble code a vehicle reported, with the first and last fix time of the batch that had it. */
export interface EngineCodeSighting {
  vehicle_id: number;
  code: string;
  first_seen: string;
  last_seen: string;
}

/**
 * The insight projection's SQL: what a batch of fixes adds to `vehicle_activity`, `vehicle_rest_hours`,
 * `driving_events` and `vehicle_engine_codes`. Each statement runs in the position projection's
 * transaction (its `manager`) and sends its rows as one JSON document that PostgreSQL unpacks.
 */
export class InsightProjectionQueries {
  /** Adds quarter hours' figures to `vehicle_activity` (sums, latest resting sample, lowest cranking voltage). */
  async addActivity(manager: EntityManager, rows: readonly ActivityRow[]): Promise<void> {
    // One statement: the quarter hours, and their resting samples summed per hour into
    // vehicle_rest_hours (what battery health reads; the hour is UTC whatever the session's zone).
    await manager.query(
      `WITH input AS (
         SELECT * FROM json_to_recordset($1::json) AS row(vehicle_id int, quarter timestamptz, distance_m float8,
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

  /** Keeps driving events, one row per vehicle, time and kind: its strongest observation (by peak). */
  async keepDrivingEvents(manager: EntityManager, rows: readonly DrivingEventRow[]): Promise<void> {
    await manager.query(
      `INSERT INTO query.driving_events AS de (vehicle_id, occurred_at, kind, severity, peak, speed_kmh)
       SELECT * FROM json_to_recordset($1::json) AS row(vehicle_id int, occurred_at timestamptz, kind text,
            severity text, peak real, speed_kmh real)
       ON CONFLICT (vehicle_id, occurred_at, kind) DO UPDATE SET
         severity = CASE WHEN EXCLUDED.peak > de.peak THEN EXCLUDED.severity ELSE de.severity END,
         speed_kmh = CASE WHEN EXCLUDED.peak > de.peak THEN EXCLUDED.speed_kmh ELSE de.speed_kmh END,
         peak = GREATEST(de.peak, EXCLUDED.peak)`,
      [JSON.stringify(rows)],
    );
  }

  /** Keeps engine codes per vehicle, widening each one's first and last seen times. */
  async keepEngineCodes(manager: EntityManager, rows: readonly EngineCodeSighting[]): Promise<void> {
    await manager.query(
      `INSERT INTO query.vehicle_engine_codes AS ec (vehicle_id, code, first_seen, last_seen)
       SELECT * FROM json_to_recordset($1::json) AS row(vehicle_id int, code text, first_seen timestamptz,
            last_seen timestamptz)
       ON CONFLICT (vehicle_id, code) DO UPDATE SET
         first_seen = LEAST(ec.first_seen, EXCLUDED.first_seen), last_seen = GREATEST(ec.last_seen, EXCLUDED.last_seen)`,
      [JSON.stringify(rows)],
    );
  }
}
