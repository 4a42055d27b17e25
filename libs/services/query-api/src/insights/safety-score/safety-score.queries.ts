import { DrivingEventKind, DrivingEventSeverity } from '@fleet/motion';
import { DataSource } from 'typeorm';
import { ScoreWindow } from './score-window';

/** One local day of a score window: its driving figures and its driving events by kind and severity. */
export interface DayRow {
  day: string;
  distance_m: number;
  driving_s: number;
  speeding_s: number;
  idle_s: number;
  events: { kind: DrivingEventKind; severity: DrivingEventSeverity; count: number }[] | null;
}

/**
 * The two statements of a safety score (docs/insights.md): the window's figures per local day, and
 * its trip count. bench/query's bare server runs them through SafetyScoreService.
 */
export class SafetyScoreQueries {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The window's local days with driving or events: quarter hours whose start lies in the window, and
   * events that happened in it, grouped by the local date in `timeZone`.
   */
  async daysOf(vehicleId: number, window: ScoreWindow, timeZone: string): Promise<DayRow[]> {
    return this.dataSource.query(
      `WITH activity AS (
         SELECT (quarter AT TIME ZONE $4)::date AS day, sum(distance_m) AS distance_m, sum(driving_s) AS driving_s,
                sum(speeding_s) AS speeding_s, sum(idle_s) AS idle_s
           FROM query.vehicle_activity
          WHERE vehicle_id = $1 AND quarter >= $2 AND quarter < $3 AND (driving_s > 0 OR idle_s > 0)
          GROUP BY 1),
       events AS (
         SELECT day, jsonb_agg(jsonb_build_object('kind', kind, 'severity', severity, 'count', n)) AS events
           FROM (SELECT (occurred_at AT TIME ZONE $4)::date AS day, kind, severity, count(*)::int AS n
                   FROM query.driving_events
                  WHERE vehicle_id = $1 AND occurred_at >= $2 AND occurred_at < $3
                  GROUP BY 1, 2, 3) counted
          GROUP BY day)
       SELECT to_char(COALESCE(a.day, e.day), 'YYYY-MM-DD') AS day, COALESCE(a.distance_m, 0) AS distance_m,
              COALESCE(a.driving_s, 0) AS driving_s, COALESCE(a.speeding_s, 0) AS speeding_s,
              COALESCE(a.idle_s, 0) AS idle_s, e.events
         FROM activity a FULL JOIN events e ON e.day = a.day
        ORDER BY 1`,
      [vehicleId, window.start, window.finish, timeZone],
    );
  }

  /** How many of the vehicle's trips started in the window. */
  async tripCountOf(vehicleId: number, window: ScoreWindow): Promise<number> {
    const [row]: { count: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM query.trips WHERE vehicle_id = $1 AND start_time >= $2 AND start_time < $3`,
      [vehicleId, window.start, window.finish],
    );
    return row.count;
  }
}
