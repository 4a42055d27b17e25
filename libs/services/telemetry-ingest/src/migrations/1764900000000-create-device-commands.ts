import { MigrationInterface, QueryRunner } from 'typeorm';

/** Device commands waiting to be handed out on the tracker port (issue 19). */
export class CreateDeviceCommands1764900000000 implements MigrationInterface {
  name = 'CreateDeviceCommands1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ingest"."device_commands" (
        "command_id" uuid NOT NULL,
        "vehicle_id" integer NOT NULL,
        "type" text NOT NULL,
        "door_lock" boolean,
        "ignition_on" boolean,
        "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "handed_at" TIMESTAMP WITH TIME ZONE,
        "hand_count" integer NOT NULL DEFAULT 0,
        "acknowledged_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_device_commands" PRIMARY KEY ("command_id"),
        CONSTRAINT "CHK_ingest_device_commands_type" CHECK ("type" IN ('doorLock', 'ignition', 'locate')),
        CONSTRAINT "CHK_ingest_device_commands_parameters" CHECK (
          ("door_lock" IS NOT NULL) = ("type" = 'doorLock') AND ("ignition_on" IS NOT NULL) = ("type" = 'ignition')
        )
      )`);
    await queryRunner.query(
      `CREATE INDEX "device_commands_vehicle_idx" ON "ingest"."device_commands" ("vehicle_id", "type")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ingest"."device_commands"`);
  }
}
