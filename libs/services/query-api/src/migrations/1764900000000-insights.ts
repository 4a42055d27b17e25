import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Insights (issue 20, docs/insights.md), projected with the positions:
 * - `last_positions.insight_state`: what the next fix of the vehicle is judged against (the previous
 *   fix's speed and course, since when the ignition is off, the current engine start, open episodes);
 * - `vehicle_activity`: per vehicle and quarter hour (UTC), distance, driving, speeding and idle time,
 *   resting and cranking voltage samples and engine starts. What the safety score and battery health
 *   sum, so that a year of history is read as at most 35,040 rows per vehicle, not 500,000 positions;
 * - `driving_events`: harsh braking, acceleration and cornering, and speeding episodes, one row each;
 * - `vehicle_engine_codes`: each diagnostic trouble code a vehicle reported, first and last seen.
 */
export class Insights1764900000000 implements MigrationInterface {
  name = 'Insights1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "query"."last_positions" ADD "insight_state" jsonb NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(`
      CREATE TABLE "query"."vehicle_activity" (
        "vehicle_id" integer NOT NULL,
        "quarter" TIMESTAMP WITH TIME ZONE NOT NULL,
        "distance_m" double precision NOT NULL DEFAULT 0,
        "driving_s" double precision NOT NULL DEFAULT 0,
        "speeding_s" double precision NOT NULL DEFAULT 0,
        "idle_s" double precision NOT NULL DEFAULT 0,
        "rest_count" integer NOT NULL DEFAULT 0,
        "rest_sum_v" double precision NOT NULL DEFAULT 0,
        "rest_last_v" real,
        "rest_last_at" TIMESTAMP WITH TIME ZONE,
        "crank_count" integer NOT NULL DEFAULT 0,
        "crank_min_v" real,
        "starts" integer NOT NULL DEFAULT 0,
        CONSTRAINT "PK_vehicle_activity" PRIMARY KEY ("vehicle_id", "quarter")
      )`);
    await queryRunner.query(`
      CREATE TABLE "query"."driving_events" (
        "vehicle_id" integer NOT NULL,
        "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "kind" text NOT NULL,
        "severity" text NOT NULL,
        "peak" real NOT NULL,
        "speed_kmh" real,
        CONSTRAINT "PK_driving_events" PRIMARY KEY ("vehicle_id", "occurred_at", "kind"),
        CONSTRAINT "CHK_driving_events_kind"
          CHECK ("kind" IN ('harshBraking', 'harshAcceleration', 'harshCornering', 'speeding')),
        CONSTRAINT "CHK_driving_events_severity" CHECK ("severity" IN ('moderate', 'severe'))
      )`);
    await queryRunner.query(`
      CREATE TABLE "query"."vehicle_engine_codes" (
        "vehicle_id" integer NOT NULL,
        "code" text NOT NULL,
        "first_seen" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_seen" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_vehicle_engine_codes" PRIMARY KEY ("vehicle_id", "code")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."vehicle_engine_codes"`);
    await queryRunner.query(`DROP TABLE "query"."driving_events"`);
    await queryRunner.query(`DROP TABLE "query"."vehicle_activity"`);
    await queryRunner.query(`ALTER TABLE "query"."last_positions" DROP COLUMN "insight_state"`);
  }
}
