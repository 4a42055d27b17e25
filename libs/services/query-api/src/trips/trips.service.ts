import { AddressResolver } from '@fleet/geo';
import { Principal } from '@fleet/platform';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Counted, pagedRows, Slice } from '../common/paging';
import { VehicleAccess } from '../common/vehicle-access';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { TripContext } from './dto/trip-record.dto';
import { StoredTrip } from './stored-trip';

/** A page of trips and the context to show them in (the token's zone, addresses, the map URL). */
export interface TripPage extends Counted<StoredTrip> {
  context: TripContext;
}

/** Completed trips (written by the position projection) with their points from history. */
@Injectable()
export class TripsService {
  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    private readonly access: VehicleAccess,
    private readonly addresses: AddressResolver,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {}

  /** Trips of a vehicle the token sees that overlap the range, oldest first. */
  async ofVehicle(
    principal: Principal,
    vehicleId: number,
    range: { from: Date; to: Date },
    slice: Slice,
  ): Promise<TripPage> {
    await this.access.visibleVehicle(principal, vehicleId);
    const { rows, total } = await this.trips(vehicleId, range.from, range.to, slice);
    return {
      rows,
      total,
      context: {
        timeZone: principal.timeZone,
        staticMapUrlTemplate: this.config.trips.staticMapUrlTemplate,
        addressOf: (lat, lng) => this.addresses.addressOf(lat, lng),
      },
    };
  }

  /** Trips of one vehicle that overlap [from, to), oldest first. */
  private async trips(vehicleId: number, from: Date, to: Date, slice: Slice): Promise<Counted<StoredTrip>> {
    const { rows, total } = pagedRows<{
      in_page: boolean | null;
      id: string;
      start_time: Date;
      end_time: Date;
      distance_m: number;
      max_speed_kmh: number;
      total: string;
    }>(
      await this.dataSource.query(
        `WITH overlapping AS (
           SELECT id, start_time, end_time, distance_m, max_speed_kmh
             FROM query.trips WHERE vehicle_id = $1 AND start_time < $3 AND end_time >= $2)
         SELECT paged.*, counted.total
           FROM (SELECT count(*) AS total FROM overlapping) counted
           LEFT JOIN LATERAL (
             SELECT true AS in_page, * FROM overlapping ORDER BY start_time LIMIT $4 OFFSET $5) paged ON true
          ORDER BY paged.start_time`,
        [vehicleId, from, to, slice.limit, slice.offset],
      ),
    );
    if (rows.length === 0) return { rows: [], total };
    const first = rows[0].start_time;
    const last = rows[rows.length - 1].end_time;
    const points: { fix_time: Date; lat: number; lng: number }[] = await this.dataSource.query(
      `SELECT fix_time, lat, lng FROM query.positions
        WHERE vehicle_id = $1 AND fix_time >= $2 AND fix_time <= $3 ORDER BY fix_time`,
      [vehicleId, first, last],
    );
    return {
      rows: rows.map((row) => ({
        id: Number(row.id),
        vehicleId,
        startTime: row.start_time,
        endTime: row.end_time,
        distanceM: row.distance_m,
        maxSpeedKmh: row.max_speed_kmh,
        points: points
          .filter((point) => point.fix_time >= row.start_time && point.fix_time <= row.end_time)
          .map((point) => ({ fixTime: point.fix_time, lat: point.lat, lng: point.lng })),
      })),
      total,
    };
  }
}
