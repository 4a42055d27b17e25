import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { Counted, Slice } from '../common/paging';
import { VehicleAccess } from '../common/vehicle-access';
import { VehicleIdentity, ViewedPositions } from '../position-records/position-view';
import { PositionViews } from '../position-records/position-views';
import { StoredPosition } from '../position-records/stored-position';
import { QueryApiException, QueryApiExceptionCode } from '../query-api.exception';
import { LastPositionQueries } from './last-position.queries';

/** When a vehicle was last heard from (any report, with or without a fix). */
export interface LastSeen {
  vehicle: VehicleIdentity;
  lastSeenAt: Date;
}

const lastSeenOf = (row: StoredPosition): LastSeen => ({ vehicle: row.vehicle, lastSeenAt: row.lastSeenAt });

/**
 * The last position of each vehicle, as the position projection keeps it (with its motion state),
 * for a company's vehicles or one vehicle. The token's reach is checked by the caller
 * ({@link VehicleAccess}); the token's allowlist narrows every company page here.
 */
@Injectable()
export class LastPositionsService {
  constructor(
    private readonly queries: LastPositionQueries,
    private readonly access: VehicleAccess,
    private readonly views: PositionViews,
  ) {}

  /** A page of the last positions of the vehicles mapped to a company the token reaches. */
  async ofCompany(principal: Principal, companyId: number, slice: Slice): Promise<ViewedPositions> {
    const { rows, total } = await this.companyRows(principal, companyId, slice);
    return { views: await this.views.ofLastPositions(rows), total, context: this.views.contextOf(principal) };
  }

  /** The last position of one vehicle the token sees; 404 when it has not reported yet. */
  async ofVehicle(principal: Principal, vehicleId: number): Promise<ViewedPositions> {
    const stored = await this.vehicleRow(principal, vehicleId, 'has not reported a position yet');
    return {
      views: await this.views.ofLastPositions([stored]),
      total: 1,
      context: this.views.contextOf(principal),
    };
  }

  /** When each vehicle of a company the token reaches was last heard from. */
  async lastSeenOfCompany(principal: Principal, companyId: number, slice: Slice): Promise<Counted<LastSeen>> {
    const { rows, total } = await this.companyRows(principal, companyId, slice);
    return { rows: rows.map(lastSeenOf), total };
  }

  /** When one vehicle the token sees was last heard from; 404 when never. */
  async lastSeenOfVehicle(principal: Principal, vehicleId: number): Promise<LastSeen> {
    return lastSeenOf(await this.vehicleRow(principal, vehicleId, 'has not been online yet'));
  }

  private companyRows(
    principal: Principal,
    companyId: number,
    slice: Slice,
  ): Promise<Counted<StoredPosition>> {
    return this.queries.companyLastPositions(companyId, this.access.allowlistOf(principal), slice);
  }

  /** The last position of a vehicle the token sees, or 404 saying why there is none. */
  private async vehicleRow(principal: Principal, vehicleId: number, notYet: string): Promise<StoredPosition> {
    await this.access.visibleVehicle(principal, vehicleId);
    const stored = await this.queries.lastPosition(vehicleId);
    if (!stored)
      throw new QueryApiException(QueryApiExceptionCode.NoPositionYet, `Vehicle ${vehicleId} ${notYet}.`);
    return stored;
  }
}
