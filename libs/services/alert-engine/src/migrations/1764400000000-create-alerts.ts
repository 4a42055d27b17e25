import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * alert-engine's tables: geofences and alert configurations (with a per-company rule version the
 * engine reloads on), its projection of the vehicle registry, per-vehicle rule state, and alert
 * records partitioned by month of their time like position history.
 */
export class CreateAlerts1764400000000 implements MigrationInterface {
  name = 'CreateAlerts1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "alerts"."geofences" (
        "id" SERIAL NOT NULL,
        "company_id" integer NOT NULL,
        "name" text NOT NULL,
        "shape" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "deleted_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_alerts_geofences" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "geofences_company_idx" ON "alerts"."geofences" ("company_id", "id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "alerts"."configurations" (
        "id" SERIAL NOT NULL,
        "company_id" integer NOT NULL,
        "name" text NOT NULL,
        "alert_type_id" smallint NOT NULL,
        "vehicle_ids" integer array NOT NULL DEFAULT '{}',
        "tags" text array NOT NULL DEFAULT '{}',
        "settings" jsonb NOT NULL DEFAULT '{}',
        "is_active" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "deleted_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_alerts_configurations" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "configurations_company_idx" ON "alerts"."configurations" ("company_id", "id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "alerts"."rule_versions" (
        "company_id" integer NOT NULL,
        "version" bigint NOT NULL,
        CONSTRAINT "PK_alerts_rule_versions" PRIMARY KEY ("company_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "alerts"."vehicles" (
        "vehicle_id" integer NOT NULL,
        "name" text NOT NULL,
        "company_ids" integer array NOT NULL,
        "tags" text array NOT NULL DEFAULT '{}',
        "version" bigint NOT NULL,
        CONSTRAINT "PK_alerts_vehicles" PRIMARY KEY ("vehicle_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "alerts"."vehicle_states" (
        "vehicle_id" integer NOT NULL,
        "newest_fix" TIMESTAMP WITH TIME ZONE NOT NULL,
        "state" jsonb NOT NULL,
        CONSTRAINT "PK_alerts_vehicle_states" PRIMARY KEY ("vehicle_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "alerts"."records" (
        "id" BIGSERIAL NOT NULL,
        "utc_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "company_id" integer NOT NULL,
        "configuration_id" integer NOT NULL,
        "alert_type_id" smallint NOT NULL,
        "vehicle_id" integer NOT NULL,
        "vehicle_name" text NOT NULL,
        "description" text NOT NULL,
        "lat" double precision NOT NULL,
        "lng" double precision NOT NULL,
        "course" smallint NOT NULL,
        "address" text,
        "address_parts" jsonb,
        "data" jsonb,
        "is_read" boolean NOT NULL DEFAULT false,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_alerts_records" PRIMARY KEY ("id", "utc_time")
      ) PARTITION BY RANGE ("utc_time")`);
    // Catches records outside every monthly partition (a tracker with a wrong clock).
    await queryRunner.query(
      `CREATE TABLE "alerts"."records_default" PARTITION OF "alerts"."records" DEFAULT`,
    );
    await queryRunner.query(
      `CREATE INDEX "records_company_time_idx" ON "alerts"."records" ("company_id", "utc_time", "id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "records_once_idx" ON "alerts"."records" ("configuration_id", "vehicle_id", "utc_time")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "alerts"."records"`);
    await queryRunner.query(`DROP TABLE "alerts"."vehicle_states"`);
    await queryRunner.query(`DROP TABLE "alerts"."vehicles"`);
    await queryRunner.query(`DROP TABLE "alerts"."rule_versions"`);
    await queryRunner.query(`DROP TABLE "alerts"."configurations"`);
    await queryRunner.query(`DROP TABLE "alerts"."geofences"`);
  }
}
