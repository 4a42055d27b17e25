import { alertRecordV2Of, AlertRecordV2Fields, listingNameOf } from '@fleet/formats';
import { Injectable } from '@nestjs/common';
import { toPositionV2, VehiclePositionV2 } from '../position-records/dto/position-record.v2';
import { PositionView, ViewContext } from '../position-records/position-view';
import { PositionViews } from '../position-records/position-views';
import { LiveAlertRecord, LivePosition } from './live.queries';

/** A live position with what its V2 record is built from (shared by every reader of the page). */
export interface ViewedLivePosition extends LivePosition {
  view: PositionView;
}

/**
 * The records the live channels send: the V2 vehicle position record of the last-position routes, and
 * the V2 alert record of the alert-record routes, written for the reader's zone and display pattern.
 */
@Injectable()
export class LiveRecords {
  constructor(private readonly views: PositionViews) {}

  /** Addresses and motion facts added, once per page for all readers. */
  async viewed(rows: readonly LivePosition[]): Promise<ViewedLivePosition[]> {
    if (rows.length === 0) return [];
    const views = await this.views.ofLastPositions(rows.map((row) => row.stored));
    return rows.map((row, index) => ({ ...row, view: views[index] }));
  }

  position(row: ViewedLivePosition, context: ViewContext): VehiclePositionV2 {
    return toPositionV2(row.view, context);
  }

  /** A record just fired is unread. */
  alert(record: LiveAlertRecord, context: ViewContext): AlertRecordV2Fields {
    return alertRecordV2Of(
      {
        ...record,
        utcTime: new Date(record.utcTime),
        description: record.description || listingNameOf(record.alertTypeId),
        isRead: false,
      },
      context,
    );
  }
}
