import { alertRecordV2Of, AlertRecordV2Fields, listingNameOf, RecordViewer } from '@fleet/formats';
import { Inject, Injectable } from '@nestjs/common';
import { toPositionV2, VehiclePositionV2 } from '../position-records/dto/position-record.v2';
import { PositionView, ViewContext } from '../position-records/position-view';
import { PositionViews } from '../position-records/position-views';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { LiveAlertRecord, LivePosition } from './live.queries';

/** A live position with what its V2 record is built from (shared by every reader of the page). */
export interface ViewedLivePosition extends LivePosition {
  view: PositionView;
  /** Its record as JSON, per reader's zone and pattern: streams of one page share them. */
  json?: Map<string, string>;
}

const keyOf = (viewer: RecordViewer) => `${viewer.timeZone}\u0000${viewer.dateFormat}`;

/**
 * The records the live channels send: the V2 vehicle position record of the last-position routes, and
 * the V2 alert record of the alert-record routes, written for the reader's zone and display pattern.
 * The stream's serialised records are kept with the page's rows, so that the many streams of one zone
 * and pattern write one JSON text, built once.
 */
@Injectable()
export class LiveRecords {
  constructor(
    private readonly views: PositionViews,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {}

  /** Addresses and motion facts added, once per page for all readers. */
  async viewed(rows: readonly LivePosition[]): Promise<ViewedLivePosition[]> {
    if (rows.length === 0) return [];
    const views = await this.views.ofLastPositions(rows.map((row) => row.stored));
    return rows.map((row, index) => ({ ...row, view: views[index] }));
  }

  /** The V2 record; `isOnline` is judged against `now`. */
  position(row: ViewedLivePosition, viewer: RecordViewer, now = new Date()): VehiclePositionV2 {
    return toPositionV2(row.view, this.context(viewer, now));
  }

  /** The V2 record as JSON, built once per zone and pattern for every stream of the page. */
  positionJson(row: ViewedLivePosition, viewer: RecordViewer, now: Date): string {
    const key = keyOf(viewer);
    row.json ??= new Map();
    let json = row.json.get(key);
    if (json === undefined) {
      json = JSON.stringify(this.position(row, viewer, now));
      row.json.set(key, json);
    }
    return json;
  }

  /** A record just fired is unread. */
  alert(record: LiveAlertRecord, viewer: RecordViewer): AlertRecordV2Fields {
    return alertRecordV2Of(
      {
        ...record,
        utcTime: new Date(record.utcTime),
        description: record.description || listingNameOf(record.alertTypeId),
        isRead: false,
      },
      viewer,
    );
  }

  private context(viewer: RecordViewer, now: Date): ViewContext {
    return { ...viewer, now, onlineWindowSeconds: this.config.onlineWindowSeconds };
  }
}
