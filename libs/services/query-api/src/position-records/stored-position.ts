import { PositionReadingsV1 } from '@fleet/contracts';
import { Counted, PagedRow, pagedRows } from '../common/paging';
import { VehicleIdentity } from './position-view';

/** A stored position joined with its vehicle; `motion` only on last positions. */
export interface StoredPosition {
  vehicle: VehicleIdentity;
  fixTime: Date;
  receivedAt: Date;
  lastSeenAt: Date;
  lat: number;
  lng: number;
  speedKmh: number | null;
  course: number | null;
  ignition: boolean | null;
  readings: PositionReadingsV1;
  motion: Record<string, unknown> | null;
}

/** A position row as the position queries select it (LAST_POSITION_COLUMNS, or history's same names). */
export interface PositionRow {
  vehicle_id: number;
  name: string;
  imei: string;
  vin: string | null;
  fix_time: Date;
  received_at: Date;
  last_seen_at: Date;
  lat: number;
  lng: number;
  speed_kmh: number | null;
  course: number | null;
  ignition: boolean | null;
  readings: PositionReadingsV1;
  motion: Record<string, unknown> | null;
  /** Last positions only: the vehicle's active engine codes (insight state), what V1's `DTC` lists. */
  active_codes?: Record<string, number> | null;
  total: string;
}

export const toStored = (row: Omit<PositionRow, 'total'>): StoredPosition => ({
  vehicle: { id: row.vehicle_id, name: row.name, imei: row.imei, vin: row.vin },
  fixTime: row.fix_time,
  receivedAt: row.received_at,
  lastSeenAt: row.last_seen_at,
  lat: row.lat,
  lng: row.lng,
  speedKmh: row.speed_kmh,
  course: row.course,
  ignition: row.ignition,
  readings: row.active_codes === undefined ? row.readings : withActiveCodes(row.readings, row.active_codes),
  motion: row.motion,
});

/**
 * A last position's readings with the vehicle's active engine codes in place of the fix's own: a
 * parked vehicle's latest report (ignition off, no OBD reading) still shows the codes that are active.
 */
function withActiveCodes(
  readings: PositionReadingsV1,
  active: Record<string, number> | null,
): PositionReadingsV1 {
  const codes = Object.keys(active ?? {}).sort();
  const { dtcCodes: _reported, ...rest } = readings;
  return codes.length ? { ...rest, dtcCodes: codes } : rest;
}

/** A page of position rows as stored positions. */
export const counted = (rows: PagedRow<PositionRow>[]): Counted<StoredPosition> => {
  const page = pagedRows(rows);
  return { rows: page.rows.map(toStored), total: page.total };
};

/** The columns of a last position joined with its vehicle (aliases `v` and `lp`). */
export const LAST_POSITION_COLUMNS = `v.id AS vehicle_id, v.name, v.imei, v.vin, lp.fix_time, lp.received_at, lp.last_seen_at,
  lp.lat, lp.lng, lp.speed_kmh, lp.course, lp.ignition, lp.readings, lp.motion, lp.insight_state->'activeCodes' AS active_codes`;
