import { readLegacyTime } from '@fleet/formats';
import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VehicleAccess } from '../../common/vehicle-access';
import { QueryApiException, QueryApiExceptionCode } from '../../query-api.exception';
import { QUERY_SCHEMA } from '../../query-api.schema.constants';
import { ScoreSubject } from './dto/safety-score.dto';
import { SafetyScoreResult, ScoreDay, scoreDays } from './safety-score';
import { SafetyScoreQueries } from './safety-score.queries';
import { resolveScoreWindow, ScoreIntervalType, ScoreWindow, ScoreWindowError } from './score-window';

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
  private readonly queries: SafetyScoreQueries;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) dataSource: DataSource,
    private readonly access: VehicleAccess,
  ) {
    this.queries = new SafetyScoreQueries(dataSource);
  }

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
      this.queries.tripCountOf(vehicleId, window),
    ]);
    return {
      subject: { vehicle, intervalType: input.intervalType, window, timeZone, tripCount },
      result: scoreDays(days),
    };
  }

  /** The window's local days with driving or events, as the score reads them. */
  private async daysOf(vehicleId: number, window: ScoreWindow, timeZone: string): Promise<ScoreDay[]> {
    const rows = await this.queries.daysOf(vehicleId, window, timeZone);
    return rows.map((row) => ({
      day: row.day,
      distanceM: Number(row.distance_m),
      drivingS: Number(row.driving_s),
      speedingS: Number(row.speeding_s),
      idleS: Number(row.idle_s),
      events: row.events ?? [],
    }));
  }
}
