import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The raw frame archive (issue 29, docs/raw-frames.md): every frame of every tracker port, in
 * compressed per-device chunks partitioned by day of arrival (RawFramePartitions creates the days and
 * drops them past RAW_FRAMES_RETENTION_DAYS; the default partition catches what falls outside them),
 * and the operators' replay requests.
 */
export class CreateRawFrames1765200000000 implements MigrationInterface {
  name = 'CreateRawFrames1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ingest"."raw_frames" (
        "id" BIGSERIAL NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "protocol" text NOT NULL,
        "imei" text,
        "vehicle_id" integer,
        "peer" text NOT NULL,
        "frame_count" integer NOT NULL,
        "frames" bytea NOT NULL,
        CONSTRAINT "PK_raw_frames" PRIMARY KEY ("id", "received_at")
      ) PARTITION BY RANGE ("received_at")`);
    // Chunks are compressed already: PostgreSQL's TOAST must not try again (EXTERNAL: out of line, as is).
    await queryRunner.query(`ALTER TABLE "ingest"."raw_frames" ALTER COLUMN "frames" SET STORAGE EXTERNAL`);
    await queryRunner.query(
      `CREATE TABLE "ingest"."raw_frames_default" PARTITION OF "ingest"."raw_frames" DEFAULT`,
    );
    await queryRunner.query(
      `CREATE INDEX "raw_frames_imei_time_idx" ON "ingest"."raw_frames" ("imei", "received_at")`,
    );
    await queryRunner.query(`
      CREATE TABLE "ingest"."frame_replays" (
        "id" SERIAL NOT NULL,
        "imei" text NOT NULL,
        "from_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "to_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "finished_at" TIMESTAMP WITH TIME ZONE,
        "frames" integer,
        "records" integer,
        "positions" integer,
        "error" text,
        CONSTRAINT "PK_frame_replays" PRIMARY KEY ("id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ingest"."frame_replays"`);
    await queryRunner.query(`DROP TABLE "ingest"."raw_frames"`);
  }
}
