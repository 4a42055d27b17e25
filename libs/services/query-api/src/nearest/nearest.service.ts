import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { Slice } from '../common/paging';
import { VehicleAccess } from '../common/vehicle-access';
import { PositionView, ViewContext } from '../position-records/position-view';
import { PositionViews } from '../position-records/position-views';
import { NearestFilter, NearestQueries } from './nearest.queries';

export type { NearestFilter } from './nearest.queries';

/** A page of vehicles near a point: views with their planar-degree distance, and the context to show them in. */
export interface NearestPage {
  items: { view: PositionView; realDistance: number }[];
  total: number;
  context: ViewContext;
}

/** Planar-degree distance rounded to a multiple of 100, as the spec defines `distance`. */
export const roundedDistance = (realDistance: number): number => Math.round(realDistance / 100) * 100;

/** The vehicles of a company nearest a point, from their last positions (GiST index on an anchor). */
@Injectable()
export class NearestService {
  constructor(
    private readonly queries: NearestQueries,
    private readonly access: VehicleAccess,
    private readonly views: PositionViews,
  ) {}

  /** Vehicles of a company the token reaches (checked by the caller) near `point`, nearest first. */
  async ofCompany(
    principal: Principal,
    companyId: number,
    point: { lat: number; lng: number },
    filter: NearestFilter,
    slice: Slice,
  ): Promise<NearestPage> {
    const { rows, total } = await this.queries.companyNearest(
      companyId,
      this.access.allowlistOf(principal),
      point,
      filter,
      slice,
    );
    const views = await this.views.ofLastPositions(rows);
    return {
      items: views.map((view, index) => ({ view, realDistance: rows[index].realDistance })),
      total,
      context: this.views.contextOf(principal),
    };
  }
}
