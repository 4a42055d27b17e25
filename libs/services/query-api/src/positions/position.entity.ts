import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Position history: one row per accepted position event, whatever how often it was delivered. */
@Entity({ schema: 'query', name: 'positions' })
@Index('positions_vehicle_fix_time_idx', ['vehicleId', 'fixTime'])
export class Position {
  /** The event id assigned by telemetry-ingest: the de-duplication key for redeliveries. */
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ type: 'text' })
  imei!: string;

  @Column({ name: 'fix_time', type: 'timestamptz' })
  fixTime!: Date;

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

  @Column({ name: 'altitude_m', type: 'real', nullable: true })
  altitudeM!: number | null;

  @Column({ type: 'boolean', nullable: true })
  ignition!: boolean | null;

  @Column({ name: 'stored_at', type: 'timestamptz', default: () => 'now()' })
  storedAt!: Date;
}
