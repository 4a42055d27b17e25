import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDeviceSessions1763800000000 implements MigrationInterface {
  name = 'CreateDeviceSessions1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ingest"."device_sessions" (
        "vehicle_id" integer NOT NULL,
        "imei" text NOT NULL,
        "version" bigint NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_device_sessions" PRIMARY KEY ("vehicle_id")
      )`);
    await queryRunner.query(`CREATE INDEX "device_sessions_imei_idx" ON "ingest"."device_sessions" ("imei")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ingest"."device_sessions"`);
  }
}
