import { PositionReadingsV1 } from '@fleet/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { VehicleIdentity } from '../records/position-view';
import { NEAREST_ANCHOR_SLACK_DEGREES } from './nearest-anchor';

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

export interface Slice {
  limit: number;
  offset: number;
}

export interface Counted<T> {
  rows: T[];
  total: number;
}

interface PositionRow {
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
  total: string;
}

const toStored = (row: PositionRow): StoredPosition => ({
  vehicle: { id: row.vehicle_id, name: row.name, imei: row.imei, vin: row.vin },
  fixTime: row.fix_time,
  receivedAt: row.received_at,
  lastSeenAt: row.last_seen_at,
  lat: row.lat,
  lng: row.lng,
  speedKmh: row.speed_kmh,
  course: row.course,
  ignition: row.ignition,
  readings: row.readings,
  motion: row.motion,
});

/**
 * A paged query returns its page LEFT JOINed to the count of all matches (`FROM (SELECT count(*) AS
 * total ...) counted LEFT JOIN LATERAL (SELECT true AS in_page, ... LIMIT OFFSET) page ON true`), so
 * that a page past the end still carries the total: one row with `in_page` null stands for no rows.
 * (A `count(*) OVER ()` column would have no row to ride on there, and would report 0.)
 */
export function pagedRows<R extends { in_page: boolean | null; total: string | number }>(
  rows: R[],
): { rows: R[]; total: number } {
  return { rows: rows.filter((row) => row.in_page), total: rows.length ? Number(rows[0].total) : 0 };
}

type PagedRow<R> = R & { in_page: boolean | null };

const counted = (rows: PagedRow<PositionRow>[]): Counted<StoredPosition> => {
  const page = pagedRows(rows);
  return { rows: page.rows.map(toStored), total: page.total };
};

/** Room for floating-point rounding in comparisons of distances the database computed. */
const ROUNDING_DEGREES = 1e-9;

const LAST_POSITION_COLUMNS = `v.id AS vehicle_id, v.name, v.imei, v.vin, lp.fix_time, lp.received_at, lp.last_seen_at,
  lp.lat, lp.lng, lp.speed_kmh, lp.course, lp.ignition, lp.readings, lp.motion`;

/**
 * The SQL of the position routes. Vehicle visibility is always one of two filters: mapped to a given
 * company (company routes), or mapped to any of the token's companies (vehicle routes); the token's
 * allowlist (`$allow`, null for none) applies to both.
 */
@Injectable()
export class PositionReader {
  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {}

  /**
   * Runs `text` as the named prepared statement `name` on the data source's pool: PostgreSQL parses it
   * once per connection and, after five runs, plans it once too. Only for statements whose best plan
   * does not depend on the values: a generic plan is used for all of them. Planning was about a third
   * of PostgreSQL's time for a page of last positions (docs/performance.md).
   */
  private async prepared<R>(name: string, text: string, values: unknown[]): Promise<R[]> {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    return (await pool.query({ name, text, values })).rows as R[];
  }

  /** Last positions of the vehicles mapped to `companyId`, by vehicle id. Vehicles that never reported are absent. */
  async companyLastPositions(
    companyId: number,
    allow: number[] | null,
    slice: Slice,
  ): Promise<Counted<StoredPosition>> {
    // Both the total and the page are index-only scans of the company's reported mappings
    // (vehicle_companies_reported_idx, in vehicle id order); only the page's rows are joined. The
    // filter is written out twice rather than as a CTE: a CTE read twice is materialized, and the
    // page was then sorted from it (1.4 against 1.0 ms of execution for a page of the company of 1,000).
    const reporting = `FROM query.vehicle_companies vc
          WHERE vc.company_id = $1 AND vc.reported AND ($2::int[] IS NULL OR vc.vehicle_id = ANY($2))`;
    const text = `SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total ${reporting}) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, ${LAST_POSITION_COLUMNS}
             FROM (SELECT vc.vehicle_id ${reporting} ORDER BY vc.vehicle_id LIMIT $3 OFFSET $4) page
             JOIN query.vehicles v ON v.id = page.vehicle_id
             JOIN query.last_positions lp ON lp.vehicle_id = page.vehicle_id) paged ON true
        ORDER BY paged.vehicle_id`;
    const values = [companyId, allow, slice.limit, slice.offset];
    // Without an allowlist the plan is the same for every company and page, so it is prepared. With
    // one, a few allowed vehicles of a large company are better found by id: planned for the values.
    const rows: PagedRow<PositionRow>[] =
      allow === null
        ? await this.prepared('query-api.company-last-positions', text, values)
        : await this.dataSource.query(text, values);
    return counted(rows);
  }

  /**
   * Vehicles of `companyId` by planar-degree distance from (lat, lng), nearest first: the radius filter
   * (on the distance rounded to a multiple of 100, as the spec defines it), then at most `num`, then the page.
   */
  async companyNearest(
    companyId: number,
    allow: number[] | null,
    point: { lat: number; lng: number },
    filter: { num?: number; radiusDegrees?: number; radiusMetres?: number },
    slice: Slice,
  ): Promise<Counted<StoredPosition & { realDistance: number }>> {
    // `point <-> point` is the planar-degree distance. Radii filter on the real position ($5, $6).
    const eligible = `
           FROM query.last_positions lp
           JOIN query.vehicle_companies vc ON vc.vehicle_id = lp.vehicle_id AND vc.company_id = $1
           JOIN query.vehicles v ON v.id = lp.vehicle_id
          WHERE ($2::int[] IS NULL OR lp.vehicle_id = ANY($2))
            AND ($5::float8 IS NULL OR floor((point(lp.lng, lp.lat) <-> point($4, $3)) / 100 + 0.5) * 100 < $5)
            AND ($6::float8 IS NULL OR 2 * 6371008.8 * asin(least(1, sqrt(
                  power(sin(radians(lp.lat - $3) / 2), 2) +
                  cos(radians($3)) * cos(radians(lp.lat)) * power(sin(radians(lp.lng - $4) / 2), 2)))) <= $6)`;
    const common = [
      companyId,
      allow,
      point.lat,
      point.lng,
      filter.radiusDegrees ?? null,
      filter.radiusMetres ?? null,
    ];
    const toNearest = (row: PositionRow & { real_distance: number }) => ({
      ...toStored(row),
      realDistance: row.real_distance,
    });

    if (filter.num === undefined) {
      // Every eligible vehicle: counted and sorted in full, only the page leaves the database.
      const rows: PagedRow<PositionRow & { real_distance: number }>[] = await this.dataSource.query(
        `WITH kept AS (
           SELECT ${LAST_POSITION_COLUMNS}, point(lp.lng, lp.lat) <-> point($4, $3) AS real_distance ${eligible})
         SELECT paged.*, counted.total
           FROM (SELECT count(*) AS total FROM kept) counted
           LEFT JOIN LATERAL (
             SELECT true AS in_page, * FROM kept ORDER BY real_distance, vehicle_id LIMIT $7 OFFSET $8) paged ON true
          ORDER BY paged.real_distance, paged.vehicle_id`,
        [...common, slice.limit, slice.offset],
      );
      const page = pagedRows(rows);
      return { rows: page.rows.map(toNearest), total: page.total };
    }

    // The GiST index holds each vehicle's anchor, within NEAREST_ANCHOR_SLACK_DEGREES of its position,
    // so it gives candidates in anchor order, not in true order. Read the first `fetch` of them: once
    // the farthest one read is anchored more than slack beyond the num-th nearest true distance among
    // them, no vehicle left unread can be nearer than that one, and the answer is exact. Otherwise (a
    // fleet dense around the point) read more. Five beyond `num` is usually enough where vehicles are
    // farther apart than the slack.
    const num = filter.num;
    if (num < 1) return { rows: [], total: 0 };
    for (let fetch = num + 5; ; fetch *= 4) {
      const candidates: (PositionRow & { real_distance: number; anchor_distance: number })[] =
        await this.dataSource.query(
          `SELECT ${LAST_POSITION_COLUMNS}, point(lp.lng, lp.lat) <-> point($4, $3) AS real_distance,
                  point(lp.anchor_lng, lp.anchor_lat) <-> point($4, $3) AS anchor_distance ${eligible}
            ORDER BY point(lp.anchor_lng, lp.anchor_lat) <-> point($4, $3)
            LIMIT $7`,
          [...common, fetch],
        );
      const byDistance = [...candidates].sort(
        (a, b) => a.real_distance - b.real_distance || a.vehicle_id - b.vehicle_id,
      );
      const complete =
        candidates.length < fetch ||
        candidates[candidates.length - 1].anchor_distance >
          byDistance[num - 1].real_distance + NEAREST_ANCHOR_SLACK_DEGREES + ROUNDING_DEGREES;
      if (!complete) continue;
      const nearest = byDistance.slice(0, num);
      return {
        rows: nearest.slice(slice.offset, slice.offset + slice.limit).map(toNearest),
        total: nearest.length,
      };
    }
  }

  /** The vehicle if the token may see it: mapped to one of `companyIds` and on the allowlist. */
  async visibleVehicle(
    vehicleId: number,
    companyIds: number[],
    allow: number[] | null,
  ): Promise<VehicleIdentity | undefined> {
    const { rows } = await this.visibleVehicles({ vehicleId }, companyIds, allow, { limit: 1, offset: 0 });
    return rows[0];
  }

  /** Vehicles the token may see, optionally narrowed to one id, IMEI or VIN; by id. */
  async visibleVehicles(
    by: { vehicleId?: number; imei?: string; vin?: string },
    companyIds: number[],
    allow: number[] | null,
    slice: Slice,
  ): Promise<Counted<VehicleIdentity & { companyIds: number[] }>> {
    const rows: PagedRow<{
      id: number;
      name: string;
      imei: string;
      vin: string | null;
      company_ids: number[];
      total: string;
    }>[] = await this.dataSource.query(
      `WITH visible AS (
         SELECT v.id, v.name, v.imei, v.vin, array_agg(vc.company_id ORDER BY vc.company_id) AS company_ids
           FROM query.vehicles v JOIN query.vehicle_companies vc ON vc.vehicle_id = v.id
          WHERE ($1::int IS NULL OR v.id = $1) AND ($2::text IS NULL OR v.imei = $2) AND ($3::text IS NULL OR v.vin = $3)
            AND ($5::int[] IS NULL OR v.id = ANY($5))
          GROUP BY v.id
         HAVING bool_or(vc.company_id = ANY($4::int[])))
       SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM visible) counted
         LEFT JOIN LATERAL (SELECT true AS in_page, * FROM visible ORDER BY id LIMIT $6 OFFSET $7) paged ON true
        ORDER BY paged.id`,
      [by.vehicleId ?? null, by.imei ?? null, by.vin ?? null, companyIds, allow, slice.limit, slice.offset],
    );
    const page = pagedRows(rows);
    return {
      rows: page.rows.map((row) => ({
        id: row.id,
        name: row.name,
        imei: row.imei,
        vin: row.vin,
        // Only the token's own companies: a mapping to a company outside its reach is not its business.
        companyIds: row.company_ids.filter((companyId) => companyIds.includes(companyId)),
      })),
      total: page.total,
    };
  }

  async lastPosition(vehicleId: number): Promise<StoredPosition | undefined> {
    const rows: PositionRow[] = await this.dataSource.query(
      `SELECT ${LAST_POSITION_COLUMNS}, 1 AS total
         FROM query.last_positions lp JOIN query.vehicles v ON v.id = lp.vehicle_id WHERE lp.vehicle_id = $1`,
      [vehicleId],
    );
    return rows.length ? toStored(rows[0]) : undefined;
  }

  /** History of one vehicle in [from, to), oldest first. */
  async history(vehicleId: number, from: Date, to: Date, slice: Slice): Promise<Counted<StoredPosition>> {
    // The count reads only the (vehicle, fix time) index; the page reads just its own rows.
    const rows: PagedRow<PositionRow>[] = await this.dataSource.query(
      `SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM query.positions
                WHERE vehicle_id = $1 AND fix_time >= $2 AND fix_time < $3) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, v.id AS vehicle_id, v.name, v.imei, v.vin, p.fix_time, p.received_at,
                  p.received_at AS last_seen_at, p.lat, p.lng, p.speed_kmh, p.course, p.ignition, p.readings,
                  NULL::jsonb AS motion
             FROM query.positions p JOIN query.vehicles v ON v.id = p.vehicle_id
            WHERE p.vehicle_id = $1 AND p.fix_time >= $2 AND p.fix_time < $3
            ORDER BY p.fix_time LIMIT $4 OFFSET $5) paged ON true
        ORDER BY paged.fix_time`,
      [vehicleId, from, to, slice.limit, slice.offset],
    );
    return counted(rows);
  }
}
