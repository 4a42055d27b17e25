import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A completed trip, written when the motion state closes it; its points are read from history. */
@Entity({ schema: 'query', name: 'trips' })
@Index('trips_vehicle_start_key', ['vehicleId', 'startTime'], { unique: true })
export class Trip {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ name: 'start_time', type: 'timestamptz' })
  startTime!: Date;

  @Column({ name: 'end_time', type: 'timestamptz' })
  endTime!: Date;

  @Column({ name: 'distance_m', type: 'double precision' })
  distanceM!: number;

  @Column({ name: 'max_speed_kmh', type: 'real' })
  maxSpeedKmh!: number;

  @Column({ name: 'start_lat', type: 'double precision' })
  startLat!: number;

  @Column({ name: 'start_lng', type: 'double precision' })
  startLng!: number;

  @Column({ name: 'end_lat', type: 'double precision' })
  endLat!: number;

  @Column({ name: 'end_lng', type: 'double precision' })
  endLng!: number;
}
