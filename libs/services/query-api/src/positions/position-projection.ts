import { fixOrderMs, instantMs, PositionReportedV1 } from '@fleet/contracts';
import { BatchCoalescer } from '@fleet/platform';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CompletedTrip, MotionEngine, StoredMotion } from '../position-records/motion-facts';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { InsightProjection, VehicleInsights } from '../insights/insight-projection';
import { DeviceState, NO_DEVICE_STATE, toRecords } from './device-state';
import { PositionHistory, readingsOf } from './position-history';
import { CurrentRow, LastPositionRow, PositionQueries } from './positions.queries';
import { LiveQueries } from '../live/live.queries';

/** Most events projected in one transaction when partition batches are merged. */
const MAX_EVENTS_PER_TRANSACTION = 2_000;
/**
 * Transactions in flight: a vehicle's events always take the same lane (its id modulo the lanes), so
 * no two lanes touch the same rows and each vehicle's events stay in order, while one lane's
 * transaction computes in this process as the other's waits for PostgreSQL. Query-api replicas
 * project disjoint partitions side by side in the same way.
 */
export const PROJECTION_LANES = 2;

interface LastPositionUpdate {
  vehicleId: number;
  lastSeenAt: Date;
  /** The newest fix of the batch, when it is newer than the stored last position. */
  newest?: PositionReportedV1;
  /** The device's own latest odometer reading, kept with the new last position. */
  deviceOdometerM: number | null;
  motion: StoredMotion;
  trips: CompletedTrip[];
  insights: VehicleInsights;
}

/** The stored last position's place in the vehicle's order: `fixOrderMs` of its row (issue 54). */
const orderMsOf = (row: CurrentRow): number =>
  Math.min(new Date(row.fix_time).getTime(), new Date(row.received_at).getTime());

const deviceStateOf = (row: CurrentRow): DeviceState => ({
  orderMs: orderMsOf(row),
  doorLocked: row.door_locked,
  engineEnabled: row.engine_enabled,
  deviceOdometerM: row.device_odometer_m,
});

function groupByVehicle(events: readonly PositionReportedV1[]): Map<number, PositionReportedV1[]> {
  const byVehicle = new Map<number, PositionReportedV1[]>();
  for (const event of events) {
    const list = byVehicle.get(event.vehicleId);
    if (list) list.push(event);
    else byVehicle.set(event.vehicleId, [event]);
  }
  return byVehicle;
}

/**
 * The position projections of one consumed batch, in one transaction: history (idempotent), then per
 * vehicle the last position, last-seen time, motion state and completed trips. Only fixes newer than
 * the stored last position advance it, so a late or repeated fix never turns the clock back; it still
 * lands in history and proves the device was heard from. Newer means later in the vehicle's order
 * (`fixOrderMs`: the fix time, or the arrival of a fix reported ahead of it), so a fix from a clock
 * running ahead holds none of this until its time comes (issue 54). Events are stored as records (toRecords):
 * odometer readings with the vehicle's offset, door and engine state carried forward.
 */
@Injectable()
export class PositionProjection {
  private readonly motion: MotionEngine;
  private readonly queries: PositionQueries;
  private readonly lanes = Array.from(
    { length: PROJECTION_LANES },
    () =>
      new BatchCoalescer<PositionReportedV1>((events) => this.project(events), MAX_EVENTS_PER_TRANSACTION),
  );

  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    private readonly history: PositionHistory,
    private readonly insights: InsightProjection,
    private readonly live: LiveQueries,
    @Inject(QUERY_API_CONFIG) config: QueryApiConfig,
  ) {
    this.motion = new MotionEngine(config.motion);
    this.queries = new PositionQueries(dataSource);
  }

  /**
   * Projects `events`; concurrent calls (one per partition batch) share a transaction per lane, and
   * resolve once every lane holding their events has committed. A lane that fails rejects the call,
   * whose delivery is tried again: what the other lane committed is projected once (history keeps the
   * first write, and the rest follows only the new rows).
   */
  async apply(events: readonly PositionReportedV1[]): Promise<void> {
    const byLane = this.lanes.map((): PositionReportedV1[] => []);
    for (const event of events) byLane[event.vehicleId % PROJECTION_LANES].push(event);
    const outcomes = await Promise.allSettled(
      byLane.map((laneEvents, lane) =>
        laneEvents.length ? this.lanes[lane].submit(laneEvents) : Promise.resolve(),
      ),
    );
    // Settled only once every lane is done, so a delivery tried again never overtakes its first try.
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async project(events: readonly PositionReportedV1[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const vehicleIds = [...new Set(events.map((event) => event.vehicleId))].sort((a, b) => a - b);
      const current = await this.lockVehicles(manager, vehicleIds);
      // Read after lockVehicles: an offset set at the same time is either committed or waits for this.
      const offsets = await this.queries.odometerOffsets(manager, vehicleIds);
      const records: PositionReportedV1[] = [];
      const states = new Map<number, DeviceState>();
      for (const [vehicleId, list] of groupByVehicle(events)) {
        const row = current.get(vehicleId);
        const projected = toRecords(
          list,
          row ? deviceStateOf(row) : NO_DEVICE_STATE,
          offsets.get(vehicleId) ?? 0,
        );
        records.push(...projected.records);
        states.set(vehicleId, projected.state);
      }
      const fresh = await this.history.append(records, manager);
      if (fresh.length === 0) return;
      // The live stream's replicas read the new rows once this commits (LiveTail).
      await this.live.notify(manager);
      const updates: LastPositionUpdate[] = [];
      for (const [vehicleId, list] of groupByVehicle(fresh)) {
        const update = this.advanceVehicle(vehicleId, list, current.get(vehicleId), states.get(vehicleId)!);
        for (const trip of update.trips) await this.recordTrip(manager, vehicleId, trip);
        updates.push(update);
      }
      await this.writeLastPositions(manager, updates);
      await this.insights.write(
        manager,
        updates.map((update) => update.insights),
        fresh,
      );
      const firstReports = updates
        .map((update) => update.vehicleId)
        .filter((vehicleId) => !current.has(vehicleId));
      if (firstReports.length) await this.markReported(manager, firstReports);
    });
  }

  /**
   * Locks what the batch changes before reading anything it computes from: the last positions of
   * the vehicles that have one (FOR UPDATE), and the registry rows of those that have none yet (FOR
   * KEY SHARE). Both conflict with what VehicleCommands holds while it sets an odometer offset (the
   * vehicle FOR UPDATE, then its last position FOR UPDATE), and with what replaceVehicleCompanies
   * holds (the vehicle FOR UPDATE). So either that transaction committed first, and the statements
   * after these locks, each with a new snapshot, see its offset or mappings; or it waits for this
   * commit, and then finds the last position written here. Last positions are locked first and the
   * registry rows second, the order that cannot deadlock with VehicleCommands, which waits for a last
   * position only of a vehicle that has one, and this never locks that vehicle's registry row.
   */
  private async lockVehicles(manager: EntityManager, vehicleIds: number[]): Promise<Map<number, CurrentRow>> {
    const rows = await this.queries.lockLastPositions(manager, vehicleIds);
    const current = new Map(rows.map((row) => [row.vehicle_id, row]));
    const unreported = vehicleIds.filter((vehicleId) => !current.has(vehicleId));
    if (unreported.length) await this.queries.shareVehicles(manager, unreported);
    return current;
  }

  /**
   * Marks the company mappings of vehicles that just got their first last position as `reported`
   * (what a company's last-position pages and totals read). A mapping made at the same time is not
   * missed: lockVehicles took the FOR KEY SHARE lock that replaceVehicleCompanies's FOR UPDATE
   * conflicts with. If the registry got there first, this UPDATE, a statement after that wait with a
   * new snapshot, sees the new mappings; if this got there first, the registry waits for this commit
   * and finds the last position itself.
   */
  private async markReported(manager: EntityManager, vehicleIds: number[]): Promise<void> {
    await this.queries.markReported(manager, vehicleIds);
  }

  /** The vehicle's new last position and motion state (pure: no I/O). */
  private advanceVehicle(
    vehicleId: number,
    events: PositionReportedV1[],
    current: CurrentRow | undefined,
    device: DeviceState,
  ): LastPositionUpdate {
    let lastSeenMs = current ? new Date(current.last_seen_at).getTime() : 0;
    for (const event of events) lastSeenMs = Math.max(lastSeenMs, instantMs(event.receivedAt));
    const lastSeenAt = new Date(lastSeenMs);
    const after = current ? orderMsOf(current) : -Infinity;
    // Each place computed once (the sort's comparisons parsed two a call: 3 % of query-api's CPU).
    const newer = events
      .map((event) => ({ event, orderMs: fixOrderMs(event) }))
      .filter(({ orderMs }) => orderMs > after)
      .sort((a, b) => a.orderMs - b.orderMs);
    const trips: CompletedTrip[] = [];
    let motion: StoredMotion = current?.motion;
    const insights = this.insights.advance(vehicleId, current?.insight_state, newer);
    for (const { event, orderMs } of newer) {
      const before = motion;
      // The motion rules see each fix at its place in the order: never a time ahead of its arrival.
      const next = this.motion.advance(motion, {
        id: event.eventId,
        fixTime: new Date(orderMs),
        lat: event.lat,
        lng: event.lng,
        speedKmh: event.speedKmh,
        ignition: event.ignition,
        motion: event.motion,
      });
      const trip = this.motion.completedTrip(before, next);
      if (trip) trips.push(trip);
      motion = next;
    }
    return {
      vehicleId,
      lastSeenAt,
      newest: newer[newer.length - 1]?.event,
      deviceOdometerM: device.deviceOdometerM,
      motion,
      trips,
      insights,
    };
  }

  /** All vehicles of the batch in two statements: new last positions, and last-seen times of the rest. */
  private async writeLastPositions(manager: EntityManager, updates: LastPositionUpdate[]): Promise<void> {
    const rows = updates.flatMap(
      ({ vehicleId, lastSeenAt, newest, deviceOdometerM, motion, insights }): LastPositionRow[] =>
        newest
          ? [
              {
                vehicle_id: vehicleId,
                fix_time: newest.fixTime,
                event_id: newest.eventId,
                received_at: newest.receivedAt,
                last_seen_at: lastSeenAt,
                lat: newest.lat,
                lng: newest.lng,
                speed_kmh: newest.speedKmh ?? null,
                course: newest.course ?? null,
                ignition: newest.ignition ?? null,
                readings: readingsOf(newest),
                motion,
                device_odometer_m: deviceOdometerM,
                insight_state: insights.state,
              },
            ]
          : [],
    );
    if (rows.length) await this.queries.upsertLastPositions(manager, rows);
    const seenOnly = updates.filter((update) => !update.newest);
    if (seenOnly.length) await this.queries.touchLastSeen(manager, seenOnly);
  }

  /** A trip the motion state closed; its end points are read back from history. */
  private async recordTrip(manager: EntityManager, vehicleId: number, trip: CompletedTrip): Promise<void> {
    const ends = await this.queries.tripEnds(manager, vehicleId, trip);
    if (ends.length < 2) return;
    await this.queries.insertTrip(manager, vehicleId, trip, { start: ends[0], end: ends[1] });
  }
}
