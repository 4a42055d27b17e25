import { readLegacyTime } from '@fleet/formats';
import { DrivingEventKind, DrivingEventSeverity } from '@fleet/motion';
import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VehicleAccess } from '../../common/vehicle-access';
import { QueryApiException, QueryApiExceptionCode } from '../../query-api.exception';
import { QUERY_SCHEMA } from '../../query-api.schema.constants';
import { ScoreSubject } from './dto/safety-score.dto';
import { SafetyScoreResult, ScoreDay, scoreDays } from './safety-score';
import { resolveScoreWindow, ScoreIntervalType, ScoreWindow, ScoreWindowError } from './score-window';

interface DayRow {
  day: string;
  distance_m: number;
  driving_s: number;
  speeding_s: number;
  idle_s: number;
  events: { kind: DrivingEventKind; severity: DrivingEventSeverity; count: number }[] | null;
}

const invalid = (description: string) =>
  new QueryApiException(QueryApiExceptionCode.InvalidTimeRange, description);

/** A `start`/`finish` value: ISO 8601 with an offset, or a wall clock in the company's zone; 422 otherwise. */
function parseScoreTime(field: string, value: string | undefined, timeZone: string): Date | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const read = readLegacyTime(value, timeZone);
  if (read === 'impossible') throw invalid(`${field}: "${value}" is not a valid date`);
  if (read === undefined)
    throw invalid(`${field}: "${value}" is not a date (ISO 8601 or yyyy-MM-dd HH:mm:ss)`);
  return read;
}

/**
 * The safety score of one vehicle the token sees (docs/insights.md): its window in the token's company
 * time zone, the figures per local day from `vehicle_activity` and `driving_events`, and the trips
 * that started in the window. One query for the days however long the window: a year of history is
 * at most 35,040 quarter hours, and only those with driving or idling are read (a covering partial
 * index holds them; resting-only quarter hours add nothing to a score).
 */
@Injectable()
export class SafetyScoreService {
  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    private readonly access: VehicleAccess,
  ) {}

  async scoreOf(
    principal: Principal,
    vehicleId: number,
    input: { intervalType: ScoreIntervalType; start?: string; finish?: string },
    now = new Date(),
  ): Promise<{ subject: ScoreSubject; result: SafetyScoreResult }> {
    const timeZone = principal.timeZone;
    const start = parseScoreTime('start', input.start, timeZone);
    const finish = parseScoreTime('finish', input.finish, timeZone);
    let window: ScoreWindow;
    try {
      window = resolveScoreWindow({ intervalType: input.intervalType, start, finish, timeZone, now });
    } catch (error) {
      if (error instanceof ScoreWindowError) throw invalid(error.message);
      throw error;
    }
    const vehicle = await this.access.visibleVehicle(principal, vehicleId);
    const [days, tripCount] = await Promise.all([
      this.daysOf(vehicleId, window, timeZone),
      this.tripCountOf(vehicleId, window),
    ]);
    return {
      subject: { vehicle, intervalType: input.intervalType, window, timeZone, tripCount },
      result: scoreDays(days),
    };
  }

  /**
   * The window's local days with driving or events: quarter hours whose start lies in the window, and
   * events that happened in it, grouped by the local date in `timeZone`.
   */
  private async daysOf(vehicleId: number, window: ScoreWindow, timeZone: string): Promise<ScoreDay[]> {
    const rows: DayRow[] = await this.dataSource.query(
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
    return rows.map((row) => ({
      day: row.day,
      distanceM: Number(row.distance_m),
      drivingS: Number(row.driving_s),
      speedingS: Number(row.speeding_s),
      idleS: Number(row.idle_s),
      events: row.events ?? [],
    }));
  }

  private async tripCountOf(vehicleId: number, window: ScoreWindow): Promise<number> {
    const [row]: { count: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM query.trips WHERE vehicle_id = $1 AND start_time >= $2 AND start_time < $3`,
      [vehicleId, window.start, window.finish],
    );
    return row.count;
  }
}
