import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Per vehicle and quarter hour (UTC start), what the insights sum (docs/insights.md): the pairs of
 * consecutive fixes ending in the quarter, and the voltage samples taken in it. Written by the position
 * projection only; the safety score and battery health read it.
 */
@Entity({ schema: 'query', name: 'vehicle_activity' })
// Covering partial indexes of the safety score and battery health (migration 1765000000000), which
// TypeORM cannot express.
@Index('vehicle_activity_driving_idx', { synchronize: false })
@Index('vehicle_activity_battery_idx', { synchronize: false })
export class VehicleActivity {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @PrimaryColumn({ type: 'timestamptz' })
  quarter!: Date;

  /** Distance driven, metres. */
  @Column({ name: 'distance_m', type: 'double precision', default: 0 })
  distanceM!: number;

  /** Seconds driving (moving). */
  @Column({ name: 'driving_s', type: 'double precision', default: 0 })
  drivingS!: number;

  /** Seconds of driving above the speeding limit. */
  @Column({ name: 'speeding_s', type: 'double precision', default: 0 })
  speedingS!: number;

  /** Seconds standing with the ignition on. */
  @Column({ name: 'idle_s', type: 'double precision', default: 0 })
  idleS!: number;

  /** Resting voltage samples (engine off, settled): how many and their sum (volts). */
  @Column({ name: 'rest_count', type: 'integer', default: 0 })
  restCount!: number;

  @Column({ name: 'rest_sum_v', type: 'double precision', default: 0 })
  restSumV!: number;

  /** The latest resting sample of the quarter and its fix time. */
  @Column({ name: 'rest_last_v', type: 'real', nullable: true })
  restLastV!: number | null;

  @Column({ name: 'rest_last_at', type: 'timestamptz', nullable: true })
  restLastAt!: Date | null;

  /** Cranking samples (the dip while the engine starts): how many and the lowest (volts). */
  @Column({ name: 'crank_count', type: 'integer', default: 0 })
  crankCount!: number;

  @Column({ name: 'crank_min_v', type: 'real', nullable: true })
  crankMinV!: number | null;

  /** Engine starts (ignition off, then on). */
  @Column({ type: 'integer', default: 0 })
  starts!: number;
}

/**
 * Per vehicle and hour (UTC start), the resting voltage samples of its quarter hours in
 * `vehicle_activity`, summed: what battery health reads for zones whose offset is a whole number of
 * hours (docs/insights.md). Written by the position projection with the quarter hours.
 */
@Entity({ schema: 'query', name: 'vehicle_rest_hours' })
export class VehicleRestHour {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @PrimaryColumn({ type: 'timestamptz' })
  hour!: Date;

  @Column({ name: 'rest_count', type: 'integer' })
  restCount!: number;

  @Column({ name: 'rest_sum_v', type: 'double precision' })
  restSumV!: number;

  /** The first and the last quarter hour of the hour with resting samples. */
  @Column({ name: 'first_quarter', type: 'timestamptz' })
  firstQuarter!: Date;

  @Column({ name: 'last_quarter', type: 'timestamptz' })
  lastQuarter!: Date;

  /** The latest resting sample of the hour and its fix time. */
  @Column({ name: 'rest_last_v', type: 'real' })
  restLastV!: number;

  @Column({ name: 'rest_last_at', type: 'timestamptz' })
  restLastAt!: Date;
}

/** A harsh manoeuvre or a speeding episode of a vehicle (docs/insights.md, Driving events). */
@Entity({ schema: 'query', name: 'driving_events' })
@Check(
  'CHK_driving_events_kind',
  `"kind" IN ('harshBraking', 'harshAcceleration', 'harshCornering', 'speeding')`,
)
@Check('CHK_driving_events_severity', `"severity" IN ('moderate', 'severe')`)
export class DrivingEventRow {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @PrimaryColumn({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @PrimaryColumn({ type: 'text' })
  kind!: string;

  @Column({ type: 'text' })
  severity!: string;

  /** The strongest value of the event: g for harsh manoeuvres, km/h for speeding. */
  @Column({ type: 'real' })
  peak!: number;

  @Column({ name: 'speed_kmh', type: 'real', nullable: true })
  speedKmh!: number | null;
}

/** A diagnostic trouble code a vehicle reported: when first and last (fix times). */
@Entity({ schema: 'query', name: 'vehicle_engine_codes' })
export class VehicleEngineCode {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @PrimaryColumn({ type: 'text' })
  code!: string;

  @Column({ name: 'first_seen', type: 'timestamptz' })
  firstSeen!: Date;

  @Column({ name: 'last_seen', type: 'timestamptz' })
  lastSeen!: Date;
}
