import { DAY_MS } from '@fleet/contracts';
import { wallClock } from '@fleet/formats';
import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { Counted, Slice } from '../../common/paging';
import { VehicleAccess } from '../../common/vehicle-access';
import { VehicleIdentity } from '../../position-records/position-view';
import {
  BatteryEvidence,
  BatteryHealth,
  batteryHealth,
  BatteryReadings,
  CRANKING_WINDOW_DAYS,
  RESTING_WINDOW_DAYS,
} from './battery-health';
import { BatteryHealthQueries, EvidenceRow } from './battery-health.queries';

/** The battery health of one vehicle, with the vehicle it is of. */
export interface VehicleBatteryHealth {
  vehicle: VehicleIdentity;
  health: BatteryHealth;
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
 * applied, by id), then one query for the page's evidence ({@link BatteryHealthQueries}: resting
 * samples of the last 30 days as daily sums in the token's company time zone, cranking samples and
 * starts of the last 7, and their last positions' readings). Two queries a page, whatever its size.
 */
@Injectable()
export class BatteryHealthService {
  constructor(
    private readonly queries: BatteryHealthQueries,
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
    const evidence = await this.queries.evidenceOf(
      vehicles.map((vehicle) => vehicle.id),
      {
        restingFrom: new Date(now.getTime() - RESTING_WINDOW_DAYS * DAY_MS),
        crankingFrom: new Date(now.getTime() - CRANKING_WINDOW_DAYS * DAY_MS),
        now,
        timeZone,
      },
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
}
