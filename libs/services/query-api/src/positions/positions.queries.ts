import { PositionReadingsV1 } from '@fleet/contracts';
import { arrayLiteral } from '@fleet/platform';
import { DataSource, EntityManager } from 'typeorm';
import { Counted, PagedRow, Slice } from '../common/paging';
import { CompletedTrip, StoredMotion } from '../position-records/motion-facts';
import { counted, PositionRow, StoredPosition } from '../position-records/stored-position';
import { InsightState } from '../insights/insight-state';
import { NEAREST_ANCHOR_SLACK_DEGREES } from './nearest-anchor';

/**
 * History rows about to be stored (`query.positions`), column by column: element i of every array is
 * row i. The insert unnests the columns in step (decision 0019).
 */
export interface HistoryColumns {
  vehicleIds: number[];
  fixTimes: string[];
  eventIds: string[];
  receivedAt: string[];
  lats: number[];
  lngs: number[];
  speedsKmh: (number | null)[];
  courses: (number | null)[];
  ignitions: (boolean | null)[];
  readings: PositionReadingsV1[];
}

/** A history row the insert stored (not there before), by its event's id. */
export interface AppendedRow {
  event_id: string;
}

/** A vehicle's stored last position as the projection reads it, locked, before applying a batch. */
export interface CurrentRow {
  vehicle_id: number;
  fix_time: Date;
  /** With `fix_time`, the last position's place in the vehicle's order (`fixOrderMs`). */
  received_at: Date;
  last_seen_at: Date;
  motion: StoredMotion;
  door_locked: boolean | null;
  engine_enabled: boolean | null;
  device_odometer_m: number | null;
  insight_state: Record<string, unknown>;
}

/** A vehicle's new last position (`query.last_positions`), as the JSON document the upsert unpacks. */
export interface LastPositionRow {
  vehicle_id: number;
  fix_time: string;
  event_id: string;
  received_at: string;
  last_seen_at: Date;
  lat: number;
  lng: number;
  speed_kmh: number | null;
  course: number | null;
  ignition: boolean | null;
  readings: PositionReadingsV1;
  motion: StoredMotion;
  device_odometer_m: number | null;
  insight_state: InsightState;
}

/** A vehicle heard from whose batch had no newer fix: only its last-seen time advances. */
export interface SeenOnly {
  vehicleId: number;
  lastSeenAt: Date;
}

/** Where a trip started and ended, read back from history. */
export interface TripEnd {
  lat: number;
  lng: number;
}

/**
 * All SQL of the positions feature: position history (written by PositionHistory, read by the
 * history routes) and the position projection's statements on last positions, the registry and trips.
 * The projection's statements run in its transaction and take its `manager`; PositionProjection says
 * in which order they lock what.
 */
export class PositionQueries {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts history rows (one statement), first write wins per vehicle and fix time, each stamped with
   * the inserting transaction (`accepted_xid`, the live stream's order); the event ids of the rows that
   * were new (an id, not the key: no timestamp to parse back per row).
   *
   * The columns go as array literals, unnested in step, and the readings as one JSON array whose
   * elements are stored as they are (`json`): PostgreSQL spent about 15 µs a row unpacking a JSON
   * document of whole rows and parsing each row's readings into jsonb, and about 9 µs this way
   * (decision 0019). The other statements of the projection unpack JSON documents (`json_to_recordset`,
   * not `jsonb_to_recordset`, which on PostgreSQL 15 took six times as long).
   */
  async appendHistory(manager: EntityManager, rows: HistoryColumns): Promise<AppendedRow[]> {
    return manager.query(
      `INSERT INTO query.positions
         (vehicle_id, fix_time, event_id, received_at, lat, lng, speed_kmh, course, ignition, readings, accepted_xid)
       SELECT vehicle_id, fix_time, event_id, received_at, lat, lng, speed_kmh, course, ignition, readings,
              pg_current_xact_id()::text::bigint
         FROM unnest($1::int[], $2::timestamptz[], $3::uuid[], $4::timestamptz[], $5::float8[], $6::float8[],
                     $7::real[], $8::smallint[], $9::bool[],
                     ARRAY(SELECT value FROM json_array_elements($10::json) WITH ORDINALITY AS element(value, n) ORDER BY n))
           AS row(vehicle_id, fix_time, event_id, received_at, lat, lng, speed_kmh, course, ignition, readings)
       ON CONFLICT (vehicle_id, fix_time) DO NOTHING
       RETURNING event_id`,
      [
        arrayLiteral(rows.vehicleIds),
        arrayLiteral(rows.fixTimes),
        arrayLiteral(rows.eventIds),
        arrayLiteral(rows.receivedAt),
        arrayLiteral(rows.lats),
        arrayLiteral(rows.lngs),
        arrayLiteral(rows.speedsKmh),
        arrayLiteral(rows.courses),
        arrayLiteral(rows.ignitions),
        JSON.stringify(rows.readings),
      ],
    );
  }

  /** A page of one vehicle's history in [from, to), oldest first, with the count of the whole range. */
  async historyPage(vehicleId: number, from: Date, to: Date, slice: Slice): Promise<Counted<StoredPosition>> {
    // The count reads only the (vehicle, fix time) index; the page reads just its own rows.
    const rows: PagedRow<PositionRow>[] = await this.dataSource.query(
      `SELECT paged.*, counted.total
         FROM (SELECT count(*) AS total FROM query.positions
                WHERE vehicle_id = $1 AND fix_time >= $2 AND fix_time < $3) counted
         LEFT JOIN LATERAL (
           SELECT true AS in_page, v.id AS vehicle_id, v.name, v.imei, v.vin, p.fix_time, p.received_at,
                  p.received_at AS last_seen_at, p.lat, p.lng, p.speed_kmh, p.course, p.ignition, p.readings,
                  NULL::jsonb AS motion
             FROM query.positions p JOIN query.vehicles v ON v.id = p.vehicle_id
            WHERE p.vehicle_id = $1 AND p.fix_time >= $2 AND p.fix_time < $3
            ORDER BY p.fix_time LIMIT $4 OFFSET $5) paged ON true
        ORDER BY paged.fix_time`,
      [vehicleId, from, to, slice.limit, slice.offset],
    );
    return counted(rows);
  }

  /** Locks the last positions of `vehicleIds` that exist (FOR UPDATE, in id order) and reads them. */
  async lockLastPositions(manager: EntityManager, vehicleIds: readonly number[]): Promise<CurrentRow[]> {
    return manager.query(
      `SELECT vehicle_id, fix_time, received_at, last_seen_at, motion, readings->'doorLocked' AS door_locked,
              readings->'engineEnabled' AS engine_enabled, device_odometer_m, insight_state
         FROM query.last_positions WHERE vehicle_id = ANY($1::int[]) ORDER BY vehicle_id FOR UPDATE`,
      [vehicleIds],
    );
  }

  /** Locks the registry rows of `vehicleIds` FOR KEY SHARE, in id order. */
  async shareVehicles(manager: EntityManager, vehicleIds: readonly number[]): Promise<void> {
    await manager.query('SELECT id FROM query.vehicles WHERE id = ANY($1::int[]) ORDER BY id FOR KEY SHARE', [
      vehicleIds,
    ]);
  }

  /** The odometer offsets (metres) of `vehicleIds` other than 0, by vehicle. */
  async odometerOffsets(manager: EntityManager, vehicleIds: readonly number[]): Promise<Map<number, number>> {
    const rows: { id: number; odometer_offset_m: number }[] = await manager.query(
      'SELECT id, odometer_offset_m FROM query.vehicles WHERE id = ANY($1::int[]) AND odometer_offset_m <> 0',
      [vehicleIds],
    );
    return new Map(rows.map((row) => [row.id, row.odometer_offset_m]));
  }

  /** Marks the company mappings of `vehicleIds` `reported` (those that are not yet). */
  async markReported(manager: EntityManager, vehicleIds: readonly number[]): Promise<void> {
    await manager.query(
      'UPDATE query.vehicle_companies SET reported = true WHERE vehicle_id = ANY($1::int[]) AND NOT reported',
      [vehicleIds],
    );
  }

  /**
   * Writes new last positions in one statement; a stored one is replaced only by a newer fix, newer in
   * the vehicle's order (`fixOrderMs`: the fix time, or the arrival when that came first), so a fix
   * whose clock ran ahead never holds the last position until its time comes (issue 54). The
   * anchor (the point the nearest index holds) moves only once the vehicle is more than the slack away
   * from it; while it stays, no indexed column changes and the update can be HOT.
   */
  async upsertLastPositions(manager: EntityManager, rows: readonly LastPositionRow[]): Promise<void> {
    await manager.query(
      `INSERT INTO query.last_positions
         (vehicle_id, fix_time, event_id, received_at, last_seen_at, lat, lng, speed_kmh, course, ignition, readings, motion,
          device_odometer_m, insight_state, anchor_lat, anchor_lng)
       SELECT vehicle_id, fix_time, event_id, received_at, last_seen_at, lat, lng, speed_kmh, course, ignition,
              readings::jsonb, motion::jsonb, device_odometer_m, insight_state::jsonb, lat, lng
         FROM json_to_recordset($1::json) AS row(vehicle_id int, fix_time timestamptz,
            event_id uuid, received_at timestamptz, last_seen_at timestamptz, lat float8, lng float8, speed_kmh real,
            course smallint, ignition bool, readings json, motion json, device_odometer_m float8, insight_state json)
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
       WHERE LEAST(last_positions.fix_time, last_positions.received_at) < LEAST(EXCLUDED.fix_time, EXCLUDED.received_at)`,
      [JSON.stringify(rows), NEAREST_ANCHOR_SLACK_DEGREES],
    );
  }

  /** Advances the last-seen times of stored last positions (never back), in one statement. */
  async touchLastSeen(manager: EntityManager, seen: readonly SeenOnly[]): Promise<void> {
    await manager.query(
      `UPDATE query.last_positions lp SET last_seen_at = GREATEST(lp.last_seen_at, seen.at)
         FROM unnest($1::int[], $2::timestamptz[]) AS seen(vehicle_id, at)
        WHERE lp.vehicle_id = seen.vehicle_id`,
      [seen.map((one) => one.vehicleId), seen.map((one) => one.lastSeenAt)],
    );
  }

  /**
   * The history points at a trip's start and end, in that order (fewer when one is missing). A trip's
   * times are its points' places in the vehicle's order (`fixOrderMs`): the fix time, or the arrival
   * of a fix reported ahead of it, whose row is then at most the clock skew later (at most an hour,
   * INGEST_CLOCK_SKEW_SECONDS' bound). The first row from the time on is the one in the usual case.
   */
  async tripEnds(manager: EntityManager, vehicleId: number, trip: CompletedTrip): Promise<TripEnd[]> {
    return manager.query(
      `(SELECT lat, lng FROM query.positions
         WHERE vehicle_id = $1 AND fix_time >= $2 AND fix_time <= $2::timestamptz + interval '1 hour'
           AND LEAST(fix_time, received_at) = $2 ORDER BY fix_time LIMIT 1)
       UNION ALL
       (SELECT lat, lng FROM query.positions
         WHERE vehicle_id = $1 AND fix_time >= $3 AND fix_time <= $3::timestamptz + interval '1 hour'
           AND LEAST(fix_time, received_at) = $3 ORDER BY fix_time LIMIT 1)`,
      [vehicleId, trip.start, trip.end],
    );
  }

  /** Stores a completed trip with its end points; a trip already stored (same start) stays as it is. */
  async insertTrip(
    manager: EntityManager,
    vehicleId: number,
    trip: CompletedTrip,
    ends: { start: TripEnd; end: TripEnd },
  ): Promise<void> {
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
        ends.start.lat,
        ends.start.lng,
        ends.end.lat,
        ends.end.lng,
      ],
    );
  }
}
