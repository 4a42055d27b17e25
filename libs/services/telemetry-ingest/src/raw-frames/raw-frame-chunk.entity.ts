import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One device's frames of up to a minute (RAW_FRAMES_CHUNK_SECONDS), compressed together: frames of one
 * device in a row resemble each other, which a chunk's DEFLATE turns into a fifth to a third of the
 * space of a row per frame (docs/raw-frames.md has the figures). Partitioned by day of `received_at`
 * (partitions managed by RawFramePartitions, not by TypeORM); the id is unique across partitions.
 */
@Entity({ schema: 'ingest', name: 'raw_frames' })
// (imei, received_at) for a device's listing and replay: created by the migration (TypeORM misreads
// indexes of partitioned tables and would recreate it on every comparison).
@Index('raw_frames_imei_time_idx', { synchronize: false })
export class RawFrameChunk {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** Arrival of the chunk's first frame: the partition key. */
  @PrimaryColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  /** Arrival of its last frame. */
  @Column({ name: 'last_received_at', type: 'timestamptz' })
  lastReceivedAt!: Date;

  /** `teltonika-tcp`, `teltonika-udp`, `gt06` or `osmand`. */
  @Column({ type: 'text' })
  protocol!: string;

  /** Null for frames received before a login (or naming no device): those are chunked by peer. */
  @Column({ type: 'text', nullable: true })
  imei!: string | null;

  @Column({ name: 'vehicle_id', type: 'integer', nullable: true })
  vehicleId!: number | null;

  /** The first frame's source address (each frame keeps its own inside the chunk). */
  @Column({ type: 'text' })
  peer!: string;

  @Column({ name: 'frame_count', type: 'integer' })
  frameCount!: number;

  /** Raw DEFLATE of the frames with their times, peers and outcomes (raw-frames/frame-chunk.ts). */
  @Column({ type: 'bytea' })
  frames!: Buffer;
}
