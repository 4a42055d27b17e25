import { PositionReportedV1 } from '@fleet/contracts';
import { BatchCoalescer } from '@fleet/platform';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CompletedTrip, MotionEngine, StoredMotion } from '../position-records/motion-facts';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';
import { InsightProjection, VehicleInsights } from '../insights/insight-projection';
import { DeviceState, NO_DEVICE_STATE, toRecords } from './device-state';
import { NEAREST_ANCHOR_SLACK_DEGREES } from './nearest-anchor';
import { PositionHistory, readingsOf } from './position-history';
import { LIVE_CHANNEL } from '../live/live.queries';

/** Most events projected in one transaction when partition batches are merged. */
const MAX_EVENTS_PER_TRANSACTION = 2_000;

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

interface CurrentRow {
  vehicle_id: number;
  fix_time: Date;
  last_seen_at: Date;
  motion: StoredMotion;
  door_locked: boolean | null;
  engine_enabled: boolean | null;
  device_odometer_m: number | null;
  insight_state: Record<string, unknown>;
}

const deviceStateOf = (row: CurrentRow): DeviceState => ({
  fixTimeMs: new Date(row.fix_time).getTime(),
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
 * lands in history and proves the device was heard from. Events are stored as records (toRecords):
 * odometer readings with the vehicle's offset, door and engine state carried forward.
 */
@Injectable()
export class PositionProjection {
  private readonly motion: MotionEngine;
  private readonly coalescer = new BatchCoalescer<PositionReportedV1>(
    (events) => this.project(events),
    MAX_EVENTS_PER_TRANSACTION,
  );

  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    private readonly history: PositionHistory,
    private readonly insights: InsightProjection,
    @Inject(QUERY_API_CONFIG) config: QueryApiConfig,
  ) {
    this.motion = new MotionEngine(config.motion);
  }

  /**
   * Projects `events`; concurrent calls (one per partition batch) share one transaction, and resolve
   * once it has committed.
   */
  apply(events: readonly PositionReportedV1[]): Promise<void> {
    return events.length === 0 ? Promise.resolve() : this.coalescer.submit(events);
  }

  private async project(events: readonly PositionReportedV1[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const vehicleIds = [...new Set(events.map((event) => event.vehicleId))].sort((a, b) => a - b);
      const current = await this.lockVehicles(manager, vehicleIds);
      const offsets = await this.odometerOffsets(manager, vehicleIds);
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
      await manager.query(`SELECT pg_notify('${LIVE_CHANNEL}', '')`);
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
    const rows: CurrentRow[] = await manager.query(
      `SELECT vehicle_id, fix_time, last_seen_at, motion, readings->'doorLocked' AS door_locked,
              readings->'engineEnabled' AS engine_enabled, device_odometer_m, insight_state
         FROM query.last_positions WHERE vehicle_id = ANY($1::int[]) ORDER BY vehicle_id FOR UPDATE`,
      [vehicleIds],
    );
    const current = new Map(rows.map((row) => [row.vehicle_id, row]));
    const unreported = vehicleIds.filter((vehicleId) => !current.has(vehicleId));
    if (unreported.length)
      await manager.query(
        'SELECT id FROM query.vehicles WHERE id = ANY($1::int[]) ORDER BY id FOR KEY SHARE',
        [unreported],
      );
    return current;
  }

  /** The vehicles' odometer offsets (metres) other than 0; read after lockVehicles. */
  private async odometerOffsets(manager: EntityManager, vehicleIds: number[]): Promise<Map<number, number>> {
    const rows: { id: number; odometer_offset_m: number }[] = await manager.query(
      'SELECT id, odometer_offset_m FROM query.vehicles WHERE id = ANY($1::int[]) AND odometer_offset_m <> 0',
      [vehicleIds],
    );
    return new Map(rows.map((row) => [row.id, row.odometer_offset_m]));
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
    await manager.query(
      'UPDATE query.vehicle_companies SET reported = true WHERE vehicle_id = ANY($1::int[]) AND NOT reported',
      [vehicleIds],
    );
  }

  /** The vehicle's new last position and motion state (pure: no I/O). */
  private advanceVehicle(
    vehicleId: number,
    events: PositionReportedV1[],
    current: CurrentRow | undefined,
    device: DeviceState,
  ): LastPositionUpdate {
    const lastSeenAt = new Date(
      Math.max(
        current ? new Date(current.last_seen_at).getTime() : 0,
        ...events.map((event) => new Date(event.receivedAt).getTime()),
      ),
    );
    const after = current ? new Date(current.fix_time).getTime() : -Infinity;
    const newer = events
      .filter((event) => new Date(event.fixTime).getTime() > after)
      .sort((a, b) => new Date(a.fixTime).getTime() - new Date(b.fixTime).getTime());
    const trips: CompletedTrip[] = [];
    let motion: StoredMotion = current?.motion;
    const insights = this.insights.advance(vehicleId, current?.insight_state, newer);
    for (const event of newer) {
      const before = motion;
      const next = this.motion.advance(motion, {
        id: event.eventId,
        fixTime: new Date(event.fixTime),
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
      newest: newer[newer.length - 1],
      deviceOdometerM: device.deviceOdometerM,
      motion,
      trips,
      insights,
    };
  }

  /** All vehicles of the batch in two statements: new last positions, and last-seen times of the rest. */
  private async writeLastPositions(manager: EntityManager, updates: LastPositionUpdate[]): Promise<void> {
    const rows = updates.flatMap(({ vehicleId, lastSeenAt, newest, deviceOdometerM, motion, insights }) =>
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
    if (rows.length) {
      // The anchor (the point the nearest index holds) moves only once the vehicle is more than the
      // slack away from it; while it stays, no indexed column changes and the update can be HOT.
      await manager.query(
        `INSERT INTO query.last_positions
           (vehicle_id, fix_time, event_id, received_at, last_seen_at, lat, lng, speed_kmh, course, ignition, readings, motion,
            device_odometer_m, insight_state, anchor_lat, anchor_lng)
         SELECT row.*, row.lat, row.lng FROM jsonb_to_recordset($1::jsonb) AS row(vehicle_id int, fix_time timestamptz,
              event_id uuid, received_at timestamptz, last_seen_at timestamptz, lat float8, lng float8, speed_kmh real,
              course smallint, ignition bool, readings jsonb, motion jsonb, device_odometer_m float8, insight_state jsonb)
         ON CONFLICT (vehicle_id) DO UPDATE SET
           fix_time = EXCLUDED.fix_time, event_id = EXCLUDED.event_id, received_at = EXCLUDED.received_at,
           last_seen_at = EXCLUDED.last_seen_at, lat = EXCLUDED.lat, lng = EXCLUDED.lng,
           speed_kmh = EXCLUDED.speed_kmh, course = EXCLUDED.course, ignition = EXCLUDED.ignition,
           readings = EXCLUDED.readings, motion = EXCLUDED.motion, device_odometer_m = EXCLUDED.device_odometer_m,
           insight_state = EXCLUDED.insight_state,
           anchor_lat = CASE WHEN point(last_positions.anchor_lng, last_positions.anchor_lat) <-> point(EXCLUDED.lng, EXCLUDED.lat) > $2
                             THEN EXCLUDED.lat ELSE last_positions.anchor_lat END,
           anchor_lng = CASE WHEN point(last_positions.anchor_lng, last_positions.anchor_lat) <-> point(EXCLUDED.lng, EXCLUDED.lat) > $2
                             THEN EXCLUDED.lng ELSE last_positions.anchor_lng END
         WHERE last_positions.fix_time < EXCLUDED.fix_time`,
        [JSON.stringify(rows), NEAREST_ANCHOR_SLACK_DEGREES],
      );
    }
    const seenOnly = updates.filter((update) => !update.newest);
    if (seenOnly.length) {
      await manager.query(
        `UPDATE query.last_positions lp SET last_seen_at = GREATEST(lp.last_seen_at, seen.at)
           FROM unnest($1::int[], $2::timestamptz[]) AS seen(vehicle_id, at)
          WHERE lp.vehicle_id = seen.vehicle_id`,
        [seenOnly.map((update) => update.vehicleId), seenOnly.map((update) => update.lastSeenAt)],
      );
    }
  }

  /** A trip the motion state closed; its end points are read back from history. */
  private async recordTrip(manager: EntityManager, vehicleId: number, trip: CompletedTrip): Promise<void> {
    const ends: { lat: number; lng: number }[] = await manager.query(
      `(SELECT lat, lng FROM query.positions WHERE vehicle_id = $1 AND fix_time = $2)
       UNION ALL
       (SELECT lat, lng FROM query.positions WHERE vehicle_id = $1 AND fix_time = $3)`,
      [vehicleId, trip.start, trip.end],
    );
    if (ends.length < 2) return;
    await manager.query(
      `INSERT INTO query.trips
         (vehicle_id, start_time, end_time, distance_m, max_speed_kmh, start_lat, start_lng, end_lat, end_lng)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (vehicle_id, start_time) DO NOTHING`,
      [
        vehicleId,
        trip.start,
        trip.end,
        trip.distanceM,
        trip.maxSpeedKmh,
        ends[0].lat,
        ends[0].lng,
        ends[1].lat,
        ends[1].lng,
      ],
    );
  }
}
