import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A vehicle's track as the dirty-data filter last judged it (TrackCheckpoints): its newest accepted
 * fix, and since when the track is unsettled (null: settled). Lets a restarted replica tell a fix that
 * continues the vehicle's track from one that begins a new one (docs/security.md, F1).
 */
@Entity({ schema: 'ingest', name: 'vehicle_tracks' })
export class VehicleTrackRow {
  @PrimaryColumn({ name: 'vehicle_id', type: 'integer' })
  vehicleId!: number;

  @Column({ name: 'fix_time', type: 'timestamptz' })
  fixTime!: Date;

  @Column({ type: 'double precision' })
  lat!: number;

  @Column({ type: 'double precision' })
  lng!: number;

  @Column({ name: 'unsettled_since', type: 'timestamptz', nullable: true })
  unsettledSince!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
