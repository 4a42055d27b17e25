import { DataSource } from 'typeorm';
import { Counted, PagedRow, pagedRows, Slice } from '../common/paging';

/** A stored trip as the trips page reads it. */
export interface TripRow {
  id: string;
  start_time: Date;
  end_time: Date;
  distance_m: number;
  max_speed_kmh: number;
}

/** A point of history along a trip. */
export interface TripPointRow {
  fix_time: Date;
  lat: number;
  lng: number;
}

/**
 * The SQL of the trips routes: `query.trips` (written by the position projection:
 * PositionQueries.insertTrip) and the history points along them.
 */
export class TripQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of one vehicle's trips that overlap [from, to), oldest first, with the count of them all. */
  async overlapping(vehicleId: number, from: Date, to: Date, slice: Slice): Promise<Counted<TripRow>> {
    const rows: PagedRow<TripRow & { total: string }>[] = await this.dataSource.query(
      `WITH overlapping AS (
         SELECT id, start_time, end_time, distance_m, max_speed_kmh
           FROM query.trips WHERE vehicle_id = $1 AND start_time < $3 AND end_time >= $2)
       SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM overlapping) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, * FROM overlapping ORDER BY start_time LIMIT $4 OFFSET $5) paged ON true
        ORDER BY paged.start_time`,
      [vehicleId, from, to, slice.limit, slice.offset],
    );
    return pagedRows(rows);
  }

  /** One vehicle's history points in [from, to] (both ends included), oldest first. */
  async pointsBetween(vehicleId: number, from: Date, to: Date): Promise<TripPointRow[]> {
    return this.dataSource.query(
      `SELECT fix_time, lat, lng FROM query.positions
        WHERE vehicle_id = $1 AND fix_time >= $2 AND fix_time <= $3 ORDER BY fix_time`,
      [vehicleId, from, to],
    );
  }
}
