import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiLegacyErrors,
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  Page,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { VehicleAccess } from '../access/vehicle-access';
import { AddressResolver } from '../geocoding/address-resolver';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { TripReader } from '../trips/trip-reader';
import { toTripV1, toTripV2, TripContext, TripRecordV1, TripRecordV2 } from '../trips/trip-records';
import { LEGACY_LIST_LIMIT } from './legacy-positions.controller';
import { envelope, sliceOf } from './paging';
import { IdParam, LegacyRangeQuery, TimeRangeQuery } from './route-inputs';
import { legacyRangeOf, timeRangeOf } from './time-range';

/** Trip replay, V2 (paginated) and V1 (UTC or user-time ranges). Trips: docs/trips.md. */
@Controller()
@ApiTags('Trips')
@RequiresAction(Actions.readVehicles)
export class ReplayController {
  constructor(
    private readonly access: VehicleAccess,
    private readonly trips: TripReader,
    private readonly addresses: AddressResolver,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {}

  @Get('v2/api/replay/:id')
  @ApiOperation({
    summary: 'Completed trips of one vehicle overlapping a time range (default: the last 24 hours)',
  })
  @ApiAuthenticated()
  @ApiPageOf(TripRecordV2)
  @ApiErrors(404, 422)
  async replay(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: IdParam,
    @Query() query: TimeRangeQuery,
  ): Promise<Page<TripRecordV2>> {
    await this.access.visibleVehicle(principal, id);
    const range = timeRangeOf(query.from, query.to);
    const { rows, total } = await this.trips.trips(id, range.from, range.to, sliceOf(query));
    const context = this.contextOf(principal);
    return envelope(await Promise.all(rows.map((trip) => toTripV2(trip, context))), total, query);
  }

  @Post('api/GetReplay')
  @HttpCode(200)
  @ApiOperation({ summary: 'V1: trips of one vehicle overlapping [from, to), times given in UTC' })
  @ApiAuthenticated({ legacy: true })
  @ApiSuccess([TripRecordV1])
  @ApiLegacyErrors(404, 422)
  async legacyReplay(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyRangeQuery,
  ): Promise<TripRecordV1[]> {
    return this.legacyTrips(principal, query, 'UTC');
  }

  @Post('api/GetReplayUserTime')
  @HttpCode(200)
  @ApiOperation({ summary: "V1: as GetReplay, with from and to read in the token's time zone" })
  @ApiAuthenticated({ legacy: true })
  @ApiSuccess([TripRecordV1])
  @ApiLegacyErrors(404, 422)
  async legacyReplayUserTime(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyRangeQuery,
  ): Promise<TripRecordV1[]> {
    return this.legacyTrips(principal, query, principal.timeZone);
  }

  private async legacyTrips(
    principal: Principal,
    query: LegacyRangeQuery,
    zone: string,
  ): Promise<TripRecordV1[]> {
    await this.access.visibleVehicle(principal, query.id);
    const range = legacyRangeOf(query.from, query.to, zone);
    const { rows } = await this.trips.trips(query.id, range.from, range.to, {
      limit: LEGACY_LIST_LIMIT,
      offset: 0,
    });
    const context = this.contextOf(principal);
    return Promise.all(rows.map((trip) => toTripV1(trip, context)));
  }

  private contextOf(principal: Principal): TripContext {
    return {
      timeZone: principal.timeZone,
      staticMapUrlTemplate: this.config.trips.staticMapUrlTemplate,
      addressOf: (lat, lng) => this.addresses.addressOf(lat, lng),
    };
  }
}
