import { PositionReadingsV1 } from '@fleet/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The columns every stored position has, whichever table holds it. */
abstract class PositionColumns {
  /** The event that brought it (telemetry-ingest's id). */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  @Column({ type: 'double precision' })
  lat!: number;

  @Column({ type: 'double precision' })
  lng!: number;

  @Column({ name: 'speed_kmh', type: 'real', nullable: true })
  speedKmh!: number | null;

  @Column({ type: 'smallint', nullable: true })
  course!: number | null;

  @Column({ type: 'boolean', nullable: true })
  ignition!: boolean | null;

  /** The other readings of the event, as the contract names them. */
  abstract readings: PositionReadingsV1;
}

/**
 * Position history, partitioned by month of `fix_time` (the partitions are managed by
 * PositionPartitions, not by TypeORM). One row per vehicle and fix time.
 */
@Entity({ schema: 'query', name: 'positions' })
// The live channels' order (accepted_xid, vehicle_id, fix_time), partial: created by a migration.
@Index('positions_accepted_idx', { synchronize: false })
export class Position extends PositionColumns {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @PrimaryColumn({ name: 'fix_time', type: 'timestamptz' })
  fixTime!: Date;

  /** As written (`json`, not `jsonb`: nothing reads inside them in SQL; decision 0019). */
  @Column({ type: 'json', default: () => "'{}'" })
  readings!: PositionReadingsV1;

  /** The transaction that stored the row (PositionHistory sets it; null on rows older than the live channels). */
  @Column({
    name: 'accepted_xid',
    type: 'bigint',
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  acceptedXid!: string | null;
}

/** The newest position of each vehicle, with its motion state and when it was last heard from. */
@Entity({ schema: 'query', name: 'last_positions' })
// GiST on point(anchor_lng, anchor_lat) for the nearest routes: created by a migration, which TypeORM
// cannot express.
@Index('last_positions_anchor_idx', { synchronize: false })
export class LastPosition extends PositionColumns {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ name: 'fix_time', type: 'timestamptz' })
  fixTime!: Date;

  /** `jsonb`: the projection and battery health read single readings (door and engine state, voltages). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  readings!: PositionReadingsV1;

  /** Receive time of the latest report of any fix time (a late, older fix still proves the device is online). */
  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  /**
   * Where the spatial index holds the vehicle: its position when the anchor was last moved, at most
   * NEAREST_ANCHOR_SLACK_DEGREES (planar) from `lat`/`lng`. Keeping it still lets updates be HOT.
   */
  @Column({ name: 'anchor_lat', type: 'double precision' })
  anchorLat!: number;

  @Column({ name: 'anchor_lng', type: 'double precision' })
  anchorLng!: number;

  /**
   * The device's own latest odometer reading in metres, before the vehicle's offset: from the newest
   * fix that carried one (a report without it keeps the one before). What an `odometer` command's
   * offset is computed against; null until the device has reported an odometer.
   */
  @Column({ name: 'device_odometer_m', type: 'double precision', nullable: true })
  deviceOdometerM!: number | null;

  /** The motion state after this position (start of movement, driving time, fatigue, current trip). */
  @Column({ type: 'jsonb' })
  motion!: Record<string, unknown>;

  /** What the insights judge the next fix against (insights/insight-state.ts). */
  @Column({ name: 'insight_state', type: 'jsonb', default: () => "'{}'" })
  insightState!: Record<string, unknown>;
}
