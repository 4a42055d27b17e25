import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Position history becomes a table partitioned by month of fix time (so retention drops whole
 * partitions and a time-range query touches only the months it asks for), keyed by vehicle and fix
 * time: a redelivered event or a resent report of the same fix is stored once. Readings beyond the
 * few that queries filter on live in one jsonb column. The table held no production data yet.
 */
export class PartitionPositionHistory1764000000000 implements MigrationInterface {
  name = 'PartitionPositionHistory1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."positions"`);
    await queryRunner.query(`
      CREATE TABLE "query"."positions" (
        "vehicle_id" integer NOT NULL,
        "fix_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "event_id" uuid NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "lat" double precision NOT NULL,
        "lng" double precision NOT NULL,
        "speed_kmh" real,
        "course" smallint,
        "ignition" boolean,
        "readings" jsonb NOT NULL DEFAULT '{}',
        CONSTRAINT "PK_positions" PRIMARY KEY ("vehicle_id", "fix_time")
      ) PARTITION BY RANGE ("fix_time")`);
    // Catches fixes outside every monthly partition (a tracker with a wrong clock) instead of failing the batch.
    await queryRunner.query(
      `CREATE TABLE "query"."positions_default" PARTITION OF "query"."positions" DEFAULT`,
    );
    await queryRunner.query(`
      CREATE TABLE "query"."last_positions" (
        "vehicle_id" integer NOT NULL,
        "fix_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "event_id" uuid NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "lat" double precision NOT NULL,
        "lng" double precision NOT NULL,
        "speed_kmh" real,
        "course" smallint,
        "ignition" boolean,
        "readings" jsonb NOT NULL DEFAULT '{}',
        "motion" jsonb NOT NULL,
        CONSTRAINT "PK_last_positions" PRIMARY KEY ("vehicle_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "query"."trips" (
        "id" BIGSERIAL NOT NULL,
        "vehicle_id" integer NOT NULL,
        "start_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "end_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "distance_m" double precision NOT NULL,
        "max_speed_kmh" real NOT NULL,
        "start_lat" double precision NOT NULL,
        "start_lng" double precision NOT NULL,
        "end_lat" double precision NOT NULL,
        "end_lng" double precision NOT NULL,
        CONSTRAINT "PK_trips" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "trips_vehicle_start_key" ON "query"."trips" ("vehicle_id", "start_time")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."trips"`);
    await queryRunner.query(`DROP TABLE "query"."last_positions"`);
    await queryRunner.query(`DROP TABLE "query"."positions"`);
    await queryRunner.query(`
      CREATE TABLE "query"."positions" (
        "event_id" uuid NOT NULL, "vehicle_id" integer NOT NULL, "imei" text NOT NULL,
        "fix_time" TIMESTAMP WITH TIME ZONE NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "lat" double precision NOT NULL, "lng" double precision NOT NULL, "speed_kmh" real, "course" smallint,
        "altitude_m" real, "ignition" boolean, "stored_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_positions" PRIMARY KEY ("event_id"))`);
  }
}
