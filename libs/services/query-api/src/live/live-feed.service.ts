import { ApiException } from '@fleet/errors';
import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { VehiclePositionV2 } from '../position-records/dto/position-record.v2';
import { PositionViews } from '../position-records/position-views';
import { AlertRecordV2Fields } from '@fleet/formats';
import {
  rowAfter,
  alertCursorOf,
  alertMarkOfCursor,
  rowsFrom,
  positionAfter,
  positionCursorOf,
  positionMarkOfCursor,
  positionsFrom,
} from './live-cursor';
import { LiveQueries } from './live.queries';
import { LiveRecords } from './live-records';
import { LiveType, LiveVisibility } from './live-visibility';

export interface FeedPage<T> {
  items: T[];
  /** Where the next call continues: after the last item, or after everything read when there were fewer. */
  cursor: string;
  /** Whether more items were already there when this page was read. */
  hasMore: boolean;
}

export interface FeedRequest {
  cursor?: string;
  since?: string;
  limit: number;
}

/**
 * The change feeds (docs/stream.md): pages of positions or alerts in the order the platform accepted
 * them, with a cursor that never returns an item twice and never skips one (LiveQueries reads only up
 * to the horizon). The cursor is the database's own order, so it works on any replica and after any
 * restart, for as long as the rows are kept.
 */
@Injectable()
export class LiveFeedService {
  constructor(
    private readonly queries: LiveQueries,
    private readonly visibility: LiveVisibility,
    private readonly records: LiveRecords,
    private readonly views: PositionViews,
  ) {}

  async positions(principal: Principal, request: FeedRequest): Promise<FeedPage<VehiclePositionV2>> {
    const after = request.cursor
      ? (positionMarkOfCursor(request.cursor) ?? invalidCursor())
      : positionsFrom(await this.startOf(request.since));
    const { scope } = await this.viewOf(principal, 'positions');
    const horizon = await this.queries.horizon();
    const rows = await this.queries.positionsAfter(after, horizon, scope, request.limit + 1);
    const hasMore = rows.length > request.limit;
    const page = await this.records.viewed(rows.slice(0, request.limit));
    const end = hasMore ? page[page.length - 1].mark : positionsFrom(horizon);
    const viewer = this.views.contextOf(principal);
    return {
      items: page.map((row) => this.records.position(row, viewer, viewer.now)),
      cursor: positionCursorOf(positionAfter(end, after) ? end : after),
      hasMore,
    };
  }

  async alerts(principal: Principal, request: FeedRequest): Promise<FeedPage<AlertRecordV2Fields>> {
    const after = request.cursor
      ? (alertMarkOfCursor(request.cursor) ?? invalidCursor())
      : rowsFrom(await this.startOf(request.since));
    const { scope } = await this.viewOf(principal, 'alerts');
    const horizon = await this.queries.horizon();
    const rows = await this.queries.alertsAfter(after, horizon, scope, request.limit + 1);
    const hasMore = rows.length > request.limit;
    const page = rows.slice(0, request.limit);
    const end = hasMore ? page[page.length - 1].mark : rowsFrom(horizon);
    const viewer = this.views.contextOf(principal);
    return {
      items: page.map((row) => this.records.alert(row.record, viewer)),
      cursor: alertCursorOf(rowAfter(end, after) ? end : after),
      hasMore,
    };
  }

  private startOf(since: string | undefined): Promise<bigint> {
    return since === undefined ? this.queries.horizon() : this.queries.horizonAt(new Date(since));
  }

  private viewOf(principal: Principal, type: LiveType) {
    return this.visibility.viewOf(principal, { types: [type], vehicleIds: null });
  }
}

function invalidCursor(): never {
  throw ApiException.invalidInput('cursor: is not a cursor this feed returned');
}
