import { PositionReadingsV1, PositionReportedV1 } from '@fleet/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { HistoryColumns, PositionQueries } from './positions.queries';

/** The readings kept in the `readings` column: everything but the columns of their own. */
export function readingsOf(event: PositionReportedV1): PositionReadingsV1 {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { eventId, vehicleId, imei, fixTime, receivedAt, lat, lng, speedKmh, course, ignition, ...rest } =
    event;
  return rest;
}

/** The history rows of `events`, column by column. */
export function historyColumns(events: readonly PositionReportedV1[]): HistoryColumns {
  const columns: HistoryColumns = {
    vehicleIds: [],
    fixTimes: [],
    eventIds: [],
    receivedAt: [],
    lats: [],
    lngs: [],
    speedsKmh: [],
    courses: [],
    ignitions: [],
    readings: [],
  };
  for (const event of events) {
    columns.vehicleIds.push(event.vehicleId);
    columns.fixTimes.push(event.fixTime);
    columns.eventIds.push(event.eventId);
    columns.receivedAt.push(event.receivedAt);
    columns.lats.push(event.lat);
    columns.lngs.push(event.lng);
    columns.speedsKmh.push(event.speedKmh ?? null);
    columns.courses.push(event.course ?? null);
    columns.ignitions.push(event.ignition ?? null);
    columns.readings.push(readingsOf(event));
  }
  return columns;
}

/**
 * Writes position events into history. Idempotent: one row per vehicle and fix time, first write wins.
 * Each row records the transaction that stored it (`accepted_xid`): the order of the live stream and
 * the change feed (LiveQueries).
 */
@Injectable()
export class PositionHistory {
  private readonly queries: PositionQueries;

  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {
    this.queries = new PositionQueries(dataSource);
  }

  /**
   * One multi-row statement per batch, the rows sent column by column (PositionQueries.appendHistory).
   * Returns the events that were new.
   */
  async append(
    events: readonly PositionReportedV1[],
    manager?: EntityManager,
  ): Promise<PositionReportedV1[]> {
    if (events.length === 0) return [];
    const inserted = await this.queries.appendHistory(
      manager ?? this.dataSource.manager,
      historyColumns(events),
    );
    // A row the insert skipped (its vehicle and fix time already stored, or taken by an earlier
    // event of this batch) returns nothing, so only the events whose own row was written are new,
    // each once (a copy of the same event later in the batch is not). PostgreSQL writes a uuid in
    // lower case.
    const fresh = new Set(inserted.map((row) => row.event_id));
    return events.filter((event) => fresh.delete(event.eventId.toLowerCase()));
  }
}
