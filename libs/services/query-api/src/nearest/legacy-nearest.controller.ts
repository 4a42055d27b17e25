import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { LEGACY_ALL } from '../common/paging';
import { LegacyPositionRoutes } from '../common/route-groups';
import { VehicleAccess } from '../common/vehicle-access';
import { toPositionV1 } from '../position-records/dto/position-record.v1';
import { LegacyNearestResult } from './dto/nearest-item.dto';
import { LegacyNearestQuery } from './dto/nearest.query';
import { NearestFilter, NearestService, roundedDistance } from './nearest.service';

/** V1: the vehicles of a company nearest a point, with V1's radius in metres or in degrees. */
@LegacyPositionRoutes()
export class LegacyNearestController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly nearestVehicles: NearestService,
  ) {}

  @Post('GetNearest')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyPositions_nearest',
    summary: 'V1: vehicles of a company near a point; radius in metres (straight line), nearest first',
  })
  @ApiSuccess(LegacyNearestResult)
  async nearest(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyNearestQuery,
  ): Promise<LegacyNearestResult> {
    return this.nearestResult(principal, query, { num: query.num, radiusMetres: query.radius });
  }

  @Post('GetNearestVehicles')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyPositions_nearestVehicles',
    summary: 'V1: as GetNearest, but radius in planar degrees on the rounded distance (the V2 semantics)',
  })
  @ApiSuccess(LegacyNearestResult)
  async nearestInDegrees(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyNearestQuery,
  ): Promise<LegacyNearestResult> {
    return this.nearestResult(principal, query, { num: query.num, radiusDegrees: query.radius });
  }

  /** The two routes differ only in how `radius` is read. */
  private async nearestResult(
    principal: Principal,
    query: LegacyNearestQuery,
    filter: NearestFilter,
  ): Promise<LegacyNearestResult> {
    const companyId = this.access.reachableCompany(principal, query.compId);
    const { items, context } = await this.nearestVehicles.ofCompany(
      principal,
      companyId,
      { lat: query.lat, lng: query.lng },
      filter,
      LEGACY_ALL,
    );
    return {
      Status: 'OK',
      result: items.map(({ view, realDistance }) => ({
        vehicle: toPositionV1(view, context),
        distance: String(roundedDistance(realDistance)),
        realDistance,
      })),
    };
  }
}
