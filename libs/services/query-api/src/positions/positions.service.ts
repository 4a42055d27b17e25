import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Counted, PagedRow, Slice } from '../common/paging';
import { VehicleAccess } from '../common/vehicle-access';
import { ViewedPositions } from '../position-records/position-view';
import { PositionViews } from '../position-records/position-views';
import { counted, PositionRow, StoredPosition } from '../position-records/stored-position';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/** Position history of one vehicle, with the motion facts replayed along the page. */
@Injectable()
export class PositionsService {
  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    private readonly access: VehicleAccess,
    private readonly views: PositionViews,
  ) {}

  /** A page of the history of a vehicle the token sees, in [from, to), oldest first. */
  async historyOf(
    principal: Principal,
    vehicleId: number,
    range: { from: Date; to: Date },
    slice: Slice,
  ): Promise<ViewedPositions> {
    await this.access.visibleVehicle(principal, vehicleId);
    const { rows, total } = await this.history(vehicleId, range.from, range.to, slice);
    return { views: await this.views.ofHistory(rows), total, context: this.views.contextOf(principal) };
  }

  /** History of one vehicle in [from, to), oldest first. */
  private async history(
    vehicleId: number,
    from: Date,
    to: Date,
    slice: Slice,
  ): Promise<Counted<StoredPosition>> {
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
