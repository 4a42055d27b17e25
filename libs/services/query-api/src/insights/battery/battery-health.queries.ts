import { DAY_MS, HOUR_MS } from '@fleet/contracts';
import { wallClock } from '@fleet/formats';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_SCHEMA } from '../../query-api.schema.constants';
import { RestingDay } from './battery-health';

/** What one vehicle's evidence query row holds (nulls where it has no samples). */
export interface EvidenceRow {
  vehicle_id: number;
  days: RestingDay[] | null;
  rest_last_v: number | null;
  rest_last_at: Date | null;
  crank_min_v: number | null;
  crank_count: number | null;
  starts: number | null;
  first_quarter: Date | null;
  last_quarter: Date | null;
  power_v: unknown;
  battery_level: unknown;
  battery_range_km: unknown;
  charging: unknown;
  charger_power_kw: unknown;
}

/** The windows of the evidence, counted back from the moment of the request. */
export interface EvidenceWindows {
  restingFrom: Date;
  crankingFrom: Date;
  now: Date;
  timeZone: string;
}

/**
 * Where the resting samples of [from, now] are read: whole hours from `vehicle_rest_hours` in
 * [hoursFrom, hoursTo), the quarter hours of `vehicle_activity` before and after. An hour row can be
 * given to one local day only when the zone's midnight falls on a whole hour, so for a zone whose
 * offset is not a whole number of hours somewhere in the window (India, Nepal, Newfoundland, …) the
 * hour range is empty and every sample comes from the quarters (slower, as exact).
 */
export function restingRanges(from: Date, now: Date, timeZone: string): { hoursFrom: Date; hoursTo: Date } {
  const hoursFrom = new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS);
  const hoursTo = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const noHours = { hoursFrom: now, hoursTo: now };
  if (hoursTo <= hoursFrom) return noHours;
  // A zone changes its offset a few times a year at most, and each offset lasts months: one look a day
  // (and at the end) sees every offset of the window.
  for (let at = from.getTime(); ; at = Math.min(at + DAY_MS, now.getTime())) {
    if (wallClock(new Date(at), timeZone).offsetMinutes % 60 !== 0) return noHours;
    if (at === now.getTime()) return { hoursFrom, hoursTo };
  }
}

/**
 * The battery evidence of a page of vehicles (docs/insights.md, Battery health): one statement,
 * whatever the page's size.
 */
@Injectable()
export class BatteryHealthQueries {
  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {}

  /**
   * One row per vehicle of `vehicleIds` (nulls for a vehicle without samples): its resting samples of
   * [restingFrom, now] as daily sums by local date in `timeZone`, the latest of them, its cranking
   * samples and starts of [crankingFrom, now], the quarter hours of the first and last sample used,
   * and its last position's battery readings. Each range is read once for the days, by its primary key
   * or the partial index `vehicle_activity_battery_idx` (whose condition is spelled out so that the
   * planner uses it), and backwards for one row for the latest sample: `rest` is used once, so
   * PostgreSQL inlines it rather than writing its ~700 rows a vehicle to a temporary file.
   */
  async evidenceOf(vehicleIds: number[], windows: EvidenceWindows): Promise<Map<number, EvidenceRow>> {
    const { restingFrom, crankingFrom, now, timeZone } = windows;
    const { hoursFrom, hoursTo } = restingRanges(restingFrom, now, timeZone);
    const rows: EvidenceRow[] = await this.dataSource.query(
      `WITH rest AS (
         SELECT vehicle_id, quarter AS at, rest_count, rest_sum_v, quarter AS first_quarter, quarter AS last_quarter,
                rest_last_v, rest_last_at
           FROM query.vehicle_activity
          WHERE vehicle_id = ANY($1::int[]) AND quarter >= $2 AND quarter < $6 AND rest_count > 0
            AND (rest_count > 0 OR crank_count > 0 OR starts > 0)
         UNION ALL
         SELECT vehicle_id, hour, rest_count, rest_sum_v, first_quarter, last_quarter, rest_last_v, rest_last_at
           FROM query.vehicle_rest_hours
          WHERE vehicle_id = ANY($1::int[]) AND hour >= $6 AND hour < $7
         UNION ALL
         SELECT vehicle_id, quarter, rest_count, rest_sum_v, quarter, quarter, rest_last_v, rest_last_at
           FROM query.vehicle_activity
          WHERE vehicle_id = ANY($1::int[]) AND quarter >= $7 AND quarter <= $5 AND rest_count > 0
            AND (rest_count > 0 OR crank_count > 0 OR starts > 0)),
       days AS (
         SELECT vehicle_id,
                jsonb_agg(jsonb_build_object('day', to_char(day, 'YYYY-MM-DD'), 'count', n, 'sumV', sum_v) ORDER BY day) AS days,
                min(first_quarter) AS first_quarter, max(last_quarter) AS last_quarter
           FROM (SELECT vehicle_id, (at AT TIME ZONE $4)::date AS day, sum(rest_count)::int AS n,
                        sum(rest_sum_v) AS sum_v, min(first_quarter) AS first_quarter, max(last_quarter) AS last_quarter
                   FROM rest GROUP BY 1, 2) per_day
          GROUP BY vehicle_id),
       cranking AS (
         SELECT vehicle_id, min(crank_min_v) AS crank_min_v, sum(crank_count)::int AS crank_count,
                sum(starts)::int AS starts, min(quarter) FILTER (WHERE crank_count > 0) AS first_quarter,
                max(quarter) FILTER (WHERE crank_count > 0) AS last_quarter
           FROM query.vehicle_activity
          WHERE vehicle_id = ANY($1::int[]) AND quarter >= $3 AND quarter <= $5 AND (crank_count > 0 OR starts > 0)
            AND (rest_count > 0 OR crank_count > 0 OR starts > 0)
          GROUP BY vehicle_id)
       SELECT page.vehicle_id, d.days, lr.rest_last_v, lr.rest_last_at, c.crank_min_v, c.crank_count, c.starts,
              LEAST(d.first_quarter, c.first_quarter) AS first_quarter,
              GREATEST(d.last_quarter, c.last_quarter) AS last_quarter,
              lp.readings->'powerV' AS power_v, lp.readings->'batteryLevel' AS battery_level,
              lp.readings->'batteryRangeKm' AS battery_range_km, lp.readings->'charging' AS charging,
              lp.readings->'chargerPowerKw' AS charger_power_kw
         FROM unnest($1::int[]) AS page(vehicle_id)
         LEFT JOIN days d USING (vehicle_id)
         -- The latest resting sample is in the latest row of one of the three ranges: one row each, backwards.
         LEFT JOIN LATERAL (
           SELECT rest_last_v, rest_last_at
             FROM ((SELECT rest_last_v, rest_last_at FROM query.vehicle_activity
                     WHERE vehicle_id = page.vehicle_id AND quarter >= $7 AND quarter <= $5 AND rest_count > 0
                       AND (rest_count > 0 OR crank_count > 0 OR starts > 0)
                     ORDER BY quarter DESC LIMIT 1)
                   UNION ALL
                   (SELECT rest_last_v, rest_last_at FROM query.vehicle_rest_hours
                     WHERE vehicle_id = page.vehicle_id AND hour >= $6 AND hour < $7
                     ORDER BY hour DESC LIMIT 1)
                   UNION ALL
                   (SELECT rest_last_v, rest_last_at FROM query.vehicle_activity
                     WHERE vehicle_id = page.vehicle_id AND quarter >= $2 AND quarter < $6 AND rest_count > 0
                       AND (rest_count > 0 OR crank_count > 0 OR starts > 0)
                     ORDER BY quarter DESC LIMIT 1)) latest
            ORDER BY rest_last_at DESC LIMIT 1) lr ON true
         LEFT JOIN cranking c USING (vehicle_id)
         LEFT JOIN query.last_positions lp USING (vehicle_id)`,
      [vehicleIds, restingFrom, crankingFrom, timeZone, now, hoursFrom, hoursTo],
    );
    return new Map(rows.map((row) => [row.vehicle_id, row]));
  }
}
