import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators' settings per tracker (issue 29, docs/device-settings.md): command profile, source
 * networks, the OsmAnd device secret (its SHA-256 only) and the clock offset added to its fix times.
 */
export class CreateDeviceSettings1765100000000 implements MigrationInterface {
  name = 'CreateDeviceSettings1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ingest"."device_settings" (
        "vehicle_id" integer NOT NULL,
        "command_profile" text,
        "allowed_networks" text array,
        "secret_hash" text,
        "clock_offset_seconds" integer NOT NULL DEFAULT 0,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_device_settings" PRIMARY KEY ("vehicle_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ingest"."device_settings"`);
  }
}
