import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Counted, PagedRow, pagedRows, Slice } from '../common/paging';
import {
  LAST_POSITION_COLUMNS,
  PositionRow,
  StoredPosition,
  toStored,
} from '../position-records/stored-position';
import { NEAREST_ANCHOR_SLACK_DEGREES } from '../positions/nearest-anchor';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/** Room for floating-point rounding in comparisons of distances the database computed. */
const ROUNDING_DEGREES = 1e-9;

/** Which vehicles a nearest query keeps: a radius (on the rounded degrees, or in metres), then a count. */
export interface NearestFilter {
  num?: number;
  radiusDegrees?: number;
  radiusMetres?: number;
}

/**
 * The SQL of the nearest routes, apart from access checks and records so that bench/query's bare
 * server runs exactly these statements. The token's allowlist is `allow` (null for none).
 */
@Injectable()
export class NearestQueries {
  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {}

  /**
   * Vehicles of `companyId` by planar-degree distance from (lat, lng), nearest first: the radius filter
   * (on the distance rounded to a multiple of 100, as the spec defines it), then at most `num`, then the page.
   */
  async companyNearest(
    companyId: number,
    allow: number[] | null,
    point: { lat: number; lng: number },
    filter: NearestFilter,
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
}
