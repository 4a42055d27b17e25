import { ApiPageOf, CurrentPrincipal, envelope, Page, Principal } from '@fleet/platform';
import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CompanyVehicleRoutes } from '../common/route-groups';
import { sliceOf } from '../common/paging';
import { IdParam } from '../common/route-inputs';
import { VehicleAccess } from '../common/vehicle-access';
import { toPositionV2 } from '../position-records/dto/position-record.v2';
import { NearestItem } from './dto/nearest-item.dto';
import { NearestQuery } from './dto/nearest.query';
import { NearestService, roundedDistance } from './nearest.service';

/** V2: the vehicles of a company nearest a point. */
@CompanyVehicleRoutes()
export class NearestController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly nearest: NearestService,
  ) {}

  @Get('nearest')
  @ApiOperation({
    operationId: 'CompanyVehicles_nearest',
    summary: 'Vehicles of the company near a point, nearest first',
    description:
      'radius filters on the rounded planar-degree distance; num caps the count after it; then the page.',
  })
  @ApiPageOf(NearestItem)
  async nearestVehicles(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: NearestQuery,
  ): Promise<Page<NearestItem>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { items, total, context } = await this.nearest.ofCompany(
      principal,
      companyId,
      { lat: query.lat, lng: query.lng },
      { num: query.num, radiusDegrees: query.radius },
      sliceOf(query),
    );
    return envelope(
      items.map(({ view, realDistance }) => ({
        vehicle: toPositionV2(view, context),
        distance: roundedDistance(realDistance),
        realDistance,
      })),
      total,
      query,
    );
  }
}
