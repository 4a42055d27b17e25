import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Device trust (issue 54, docs/security.md F1): each vehicle's track as the dirty-data filter last
 * judged it (checkpointed, so that a restart still knows where a vehicle is and whether its track is
 * settled), the operator's explicit opt-out of authenticated commands per device, and when a command was
 * first held back for want of an authenticated device (its status says so once).
 */
export class DeviceTrust1765600000000 implements MigrationInterface {
  name = 'DeviceTrust1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ingest"."vehicle_tracks" (
        "vehicle_id" integer NOT NULL,
        "fix_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "lat" double precision NOT NULL,
        "lng" double precision NOT NULL,
        "unsettled_since" TIMESTAMP WITH TIME ZONE,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_vehicle_tracks" PRIMARY KEY ("vehicle_id")
      )`);
    await queryRunner.query(
      `ALTER TABLE "ingest"."device_settings" ADD COLUMN "insecure_commands" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`ALTER TABLE "ingest"."device_commands" ADD COLUMN "held_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ingest"."device_commands" DROP COLUMN "held_at"`);
    await queryRunner.query(`ALTER TABLE "ingest"."device_settings" DROP COLUMN "insecure_commands"`);
    await queryRunner.query(`DROP TABLE "ingest"."vehicle_tracks"`);
  }
}
