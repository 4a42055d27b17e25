import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiLegacyErrors,
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  envelope,
  Page,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { LEGACY_ALL, sliceOf } from '../common/paging';
import { IdParam, LegacyRangeQuery, TimeRangeQuery } from '../common/route-inputs';
import { legacyRangeOf, timeRangeOf } from '../common/time-range';
import { toTripV1, toTripV2, TripRecordV1, TripRecordV2 } from './dto/trip-record.dto';
import { TripsService } from './trips.service';

/** Trip replay, V2 (paginated) and V1 (UTC or user-time ranges). Trips: docs/trips.md. */
@Controller()
@ApiTags('Trips')
@RequiresAction(Actions.readVehicles)
export class TripsController {
  constructor(private readonly trips: TripsService) {}

  @Get('v2/api/replay/:id')
  @ApiOperation({
    operationId: 'Replay_replay',
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
    const range = timeRangeOf(query.from, query.to);
    const { rows, total, context } = await this.trips.ofVehicle(principal, id, range, sliceOf(query));
    return envelope(await Promise.all(rows.map((trip) => toTripV2(trip, context))), total, query);
  }

  @Post('api/GetReplay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'Replay_legacyReplay',
    summary: 'V1: trips of one vehicle overlapping [from, to), times given in UTC',
  })
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
  @ApiOperation({
    operationId: 'Replay_legacyReplayUserTime',
    summary: "V1: as GetReplay, with from and to read in the token's time zone",
  })
  @ApiAuthenticated({ legacy: true })
  @ApiSuccess([TripRecordV1])
  @ApiLegacyErrors(404, 422)
  async legacyReplayUserTime(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyRangeQuery,
  ): Promise<TripRecordV1[]> {
    return this.legacyTrips(principal, query, principal.timeZone);
  }

  /** The two V1 routes differ only in the zone `from` and `to` are read in. */
  private async legacyTrips(
    principal: Principal,
    query: LegacyRangeQuery,
    zone: string,
  ): Promise<TripRecordV1[]> {
    const range = legacyRangeOf(query.from, query.to, zone);
    const { rows, context } = await this.trips.ofVehicle(principal, query.id, range, LEGACY_ALL);
    return Promise.all(rows.map((trip) => toTripV1(trip, context)));
  }
}
