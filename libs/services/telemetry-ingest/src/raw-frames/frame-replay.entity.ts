import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An operator's request to decode a device's archived frames again and publish their positions
 * (`npm run admin -- frames:replay`): written by the admin CLI, claimed by one telemetry-ingest replica,
 * finished with its counts (or the error that stopped it).
 */
@Entity({ schema: 'ingest', name: 'frame_replays' })
export class FrameReplay {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  imei!: string;

  @Column({ name: 'from_time', type: 'timestamptz' })
  fromTime!: Date;

  @Column({ name: 'to_time', type: 'timestamptz' })
  toTime!: Date;

  @Column({ name: 'requested_at', type: 'timestamptz', default: () => 'now()' })
  requestedAt!: Date;

  /** Null while pending. */
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** Frames of the range read again. */
  @Column({ type: 'integer', nullable: true })
  frames!: number | null;

  /** Position reports the current decoders found in them. */
  @Column({ type: 'integer', nullable: true })
  records!: number | null;

  /** Positions published (the rest the dirty-data rules refused, duplicates of the newest fix among them). */
  @Column({ type: 'integer', nullable: true })
  positions!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
