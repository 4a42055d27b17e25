import { AddressResolver } from '@fleet/geo';
import { Principal } from '@fleet/platform';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Counted, Slice } from '../common/paging';
import { VehicleAccess } from '../common/vehicle-access';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { TripContext } from './dto/trip-record.dto';
import { StoredTrip } from './stored-trip';
import { TripQueries } from './trips.queries';

/** A page of trips and the context to show them in (the token's zone, addresses, the map URL). */
export interface TripPage extends Counted<StoredTrip> {
  context: TripContext;
}

/** Completed trips (written by the position projection) with their points from history. */
@Injectable()
export class TripsService {
  private readonly queries: TripQueries;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) dataSource: DataSource,
    private readonly access: VehicleAccess,
    private readonly addresses: AddressResolver,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {
    this.queries = new TripQueries(dataSource);
  }

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
    const { rows, total } = await this.queries.overlapping(vehicleId, from, to, slice);
    if (rows.length === 0) return { rows: [], total };
    const first = rows[0].start_time;
    const last = rows[rows.length - 1].end_time;
    const points = await this.queries.pointsBetween(vehicleId, first, last);
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
