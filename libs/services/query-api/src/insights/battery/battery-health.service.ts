import { DAY_MS } from '@fleet/contracts';
import { wallClock } from '@fleet/formats';
import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Counted, Slice } from '../../common/paging';
import { VehicleAccess } from '../../common/vehicle-access';
import { VehicleIdentity } from '../../position-records/position-view';
import { QUERY_SCHEMA } from '../../query-api.schema.constants';
import {
  BatteryEvidence,
  BatteryHealth,
  batteryHealth,
  BatteryReadings,
  CRANKING_WINDOW_DAYS,
  RESTING_WINDOW_DAYS,
  RestingDay,
} from './battery-health';

/** The battery health of one vehicle, with the vehicle it is of. */
export interface VehicleBatteryHealth {
  vehicle: VehicleIdentity;
  health: BatteryHealth;
}

interface EvidenceRow {
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

/** A vehicle without a single row in either table. */
const NO_EVIDENCE: Omit<BatteryEvidence, 'today'> = Object.freeze({
  restingDays: [],
  cranking: { count: 0, starts: 0 },
});

const numberOrUndefined = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The readings of a last position that bear on the battery, each only when it has the contract's type. */
function readingsOf(row: EvidenceRow): BatteryReadings {
  const readings: BatteryReadings = {};
  const powerV = numberOrUndefined(row.power_v);
  const batteryLevel = numberOrUndefined(row.battery_level);
  const batteryRangeKm = numberOrUndefined(row.battery_range_km);
  const chargerPowerKw = numberOrUndefined(row.charger_power_kw);
  if (powerV !== undefined) readings.powerV = powerV;
  if (batteryLevel !== undefined) readings.batteryLevel = batteryLevel;
  if (batteryRangeKm !== undefined) readings.batteryRangeKm = batteryRangeKm;
  if (chargerPowerKw !== undefined) readings.chargerPowerKw = chargerPowerKw;
  if (typeof row.charging === 'boolean') readings.charging = row.charging;
  return readings;
}

const localDate = (instant: Date, timeZone: string): string => {
  const clock = wallClock(instant, timeZone);
  return `${clock.year}-${String(clock.month).padStart(2, '0')}-${String(clock.day).padStart(2, '0')}`;
};

/**
 * Battery health of a company's vehicles, a page at a time (docs/insights.md, Battery health): the
 * page of vehicles as the company routes list them (mapped to the company, the token's allowlist
 * applied, by id), then one query for the page's evidence from the quarter hours of
 * `vehicle_activity` (resting samples of the last 30 days as daily means in the token's company
 * time zone, cranking samples and starts of the last 7) and their last positions' readings. Two
 * queries a page, whatever its size.
 */
@Injectable()
export class BatteryHealthService {
  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    private readonly access: VehicleAccess,
  ) {}

  /**
   * A page of the battery health of the vehicles mapped to `companyId`, which the caller has
   * checked the token reaches (the token's own company for V2).
   */
  async ofCompany(
    principal: Principal,
    companyId: number,
    slice: Slice,
    now = new Date(),
  ): Promise<Counted<VehicleBatteryHealth>> {
    const { rows: vehicles, total } = await this.access.companyVehicles(principal, companyId, slice);
    if (!vehicles.length) return { rows: [], total };
    const timeZone = principal.timeZone;
    const evidence = await this.evidenceOf(
      vehicles.map((vehicle) => vehicle.id),
      now,
      timeZone,
    );
    const today = localDate(now, timeZone);
    return {
      rows: vehicles.map((vehicle) => {
        const row = evidence.get(vehicle.id);
        return {
          vehicle: { id: vehicle.id, name: vehicle.name, imei: vehicle.imei, vin: vehicle.vin },
          health: batteryHealth(row ? this.evidenceFrom(row, today) : { ...NO_EVIDENCE, today }),
        };
      }),
      total,
    };
  }

  private evidenceFrom(row: EvidenceRow, today: string): BatteryEvidence {
    return {
      restingDays: row.days ?? [],
      latestResting:
        row.rest_last_v !== null && row.rest_last_at !== null
          ? { volts: row.rest_last_v, at: row.rest_last_at }
          : undefined,
      cranking: {
        count: row.crank_count ?? 0,
        lowestV: row.crank_min_v ?? undefined,
        starts: row.starts ?? 0,
      },
      period:
        row.first_quarter && row.last_quarter
          ? { start: row.first_quarter, end: row.last_quarter }
          : undefined,
      readings: readingsOf(row),
      today,
    };
  }

  /**
   * The evidence of each vehicle of `vehicleIds`, one row each (a vehicle without any row in either
   * table has nulls). The quarter hours are read once (`recent`, by the primary key) and summed four
   * ways: per local day (a quarter hour lies in one local day: every zone's midnight falls on a
   * quarter hour), the latest resting sample, the cranking window, and the period of the samples used.
   */
  private async evidenceOf(
    vehicleIds: number[],
    now: Date,
    timeZone: string,
  ): Promise<Map<number, EvidenceRow>> {
    const restingFrom = new Date(now.getTime() - RESTING_WINDOW_DAYS * DAY_MS);
    const crankingFrom = new Date(now.getTime() - CRANKING_WINDOW_DAYS * DAY_MS);
    const rows: EvidenceRow[] = await this.dataSource.query(
      `WITH recent AS (
         SELECT vehicle_id, quarter, rest_count, rest_sum_v, rest_last_v, rest_last_at, crank_count,
                crank_min_v, starts
           FROM query.vehicle_activity
          WHERE vehicle_id = ANY($1::int[]) AND quarter >= $2 AND quarter <= $5
            AND (rest_count > 0 OR (quarter >= $3 AND (crank_count > 0 OR starts > 0)))
            -- the partial index's condition, spelled out so that the planner uses it
            AND (rest_count > 0 OR crank_count > 0 OR starts > 0)),
       days AS (
         SELECT vehicle_id, jsonb_agg(jsonb_build_object('day', day, 'count', n, 'sumV', sum_v) ORDER BY day) AS days
           FROM (SELECT vehicle_id, to_char((quarter AT TIME ZONE $4)::date, 'YYYY-MM-DD') AS day,
                        sum(rest_count)::int AS n, sum(rest_sum_v) AS sum_v
                   FROM recent WHERE rest_count > 0
                  GROUP BY 1, 2) per_day
          GROUP BY vehicle_id),
       latest_rest AS (
         SELECT DISTINCT ON (vehicle_id) vehicle_id, rest_last_v, rest_last_at
           FROM recent WHERE rest_last_at IS NOT NULL
          ORDER BY vehicle_id, rest_last_at DESC),
       cranking AS (
         SELECT vehicle_id, min(crank_min_v) AS crank_min_v, sum(crank_count)::int AS crank_count,
                sum(starts)::int AS starts
           FROM recent WHERE quarter >= $3
          GROUP BY vehicle_id),
       period AS (
         SELECT vehicle_id, min(quarter) AS first_quarter, max(quarter) AS last_quarter
           FROM recent WHERE rest_count > 0 OR (quarter >= $3 AND crank_count > 0)
          GROUP BY vehicle_id)
       SELECT page.vehicle_id, d.days, lr.rest_last_v, lr.rest_last_at, c.crank_min_v, c.crank_count, c.starts,
              p.first_quarter, p.last_quarter,
              lp.readings->'powerV' AS power_v, lp.readings->'batteryLevel' AS battery_level,
              lp.readings->'batteryRangeKm' AS battery_range_km, lp.readings->'charging' AS charging,
              lp.readings->'chargerPowerKw' AS charger_power_kw
         FROM unnest($1::int[]) AS page(vehicle_id)
         LEFT JOIN days d USING (vehicle_id)
         LEFT JOIN latest_rest lr USING (vehicle_id)
         LEFT JOIN cranking c USING (vehicle_id)
         LEFT JOIN period p USING (vehicle_id)
         LEFT JOIN query.last_positions lp USING (vehicle_id)`,
      [vehicleIds, restingFrom, crankingFrom, timeZone, now],
    );
    return new Map(rows.map((row) => [row.vehicle_id, row]));
  }
}
