import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Slice } from '../common/paging';
import { VehicleAccess } from '../common/vehicle-access';
import { ViewedPositions } from '../position-records/position-view';
import { PositionViews } from '../position-records/position-views';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { PositionQueries } from './positions.queries';

/** Position history of one vehicle, with the motion facts replayed along the page. */
@Injectable()
export class PositionsService {
  private readonly queries: PositionQueries;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) dataSource: DataSource,
    private readonly access: VehicleAccess,
    private readonly views: PositionViews,
  ) {
    this.queries = new PositionQueries(dataSource);
  }

  /** A page of the history of a vehicle the token sees, in [from, to), oldest first. */
  async historyOf(
    principal: Principal,
    vehicleId: number,
    range: { from: Date; to: Date },
    slice: Slice,
  ): Promise<ViewedPositions> {
    await this.access.visibleVehicle(principal, vehicleId);
    const { rows, total } = await this.queries.historyPage(vehicleId, range.from, range.to, slice);
    return { views: await this.views.ofHistory(rows), total, context: this.views.contextOf(principal) };
  }
}
