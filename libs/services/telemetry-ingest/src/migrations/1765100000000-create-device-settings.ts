import { MigrationInterface, QueryRunner } from 'typeorm';

/** Operators' settings per tracker: command profile and source networks (issue 29). */
export class CreateDeviceSettings1765100000000 implements MigrationInterface {
  name = 'CreateDeviceSettings1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ingest"."device_settings" (
        "vehicle_id" integer NOT NULL,
        "command_profile" text,
        "allowed_networks" text array,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_device_settings" PRIMARY KEY ("vehicle_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ingest"."device_settings"`);
  }
}
