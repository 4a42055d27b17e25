import { MigrationInterface, QueryRunner } from 'typeorm';

/** command-gateway's tables: the command log, idempotency keys, and its projection of the vehicle registry. */
export class CreateCommands1764800000000 implements MigrationInterface {
  name = 'CreateCommands1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "commands"."commands" (
        "id" uuid NOT NULL,
        "company_id" integer NOT NULL,
        "vehicle_id" integer NOT NULL,
        "type" text NOT NULL,
        "lock" boolean,
        "engine_on" boolean,
        "odometer_km" double precision,
        "name" text,
        "status" text NOT NULL DEFAULT 'queued',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "sent_at" TIMESTAMP WITH TIME ZONE,
        "last_sent_at" TIMESTAMP WITH TIME ZONE,
        "finished_at" TIMESTAMP WITH TIME ZONE,
        "reason" text,
        CONSTRAINT "PK_commands_commands" PRIMARY KEY ("id"),
        CONSTRAINT "commands_type_check" CHECK ("type" IN ('doorLock', 'ignition', 'locate', 'odometer', 'name')),
        CONSTRAINT "commands_status_check"
          CHECK ("status" IN ('queued', 'sent', 'acknowledged', 'failed', 'expired', 'superseded'))
      )`);
    await queryRunner.query(
      `CREATE INDEX "commands_vehicle_idx" ON "commands"."commands" ("vehicle_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "commands_waiting_idx" ON "commands"."commands" ("expires_at") WHERE "status" IN ('queued', 'sent')`,
    );
    await queryRunner.query(`
      CREATE TABLE "commands"."idempotency_keys" (
        "company_id" integer NOT NULL,
        "key" text NOT NULL,
        "command_id" uuid NOT NULL,
        "request" text NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_commands_idempotency_keys" PRIMARY KEY ("company_id", "key")
      )`);
    await queryRunner.query(
      `CREATE INDEX "idempotency_keys_created_idx" ON "commands"."idempotency_keys" ("created_at")`,
    );
    await queryRunner.query(`
      CREATE TABLE "commands"."vehicles" (
        "vehicle_id" integer NOT NULL,
        "company_ids" integer array NOT NULL,
        "version" bigint NOT NULL,
        CONSTRAINT "PK_commands_vehicles" PRIMARY KEY ("vehicle_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "commands"."vehicles"`);
    await queryRunner.query(`DROP TABLE "commands"."idempotency_keys"`);
    await queryRunner.query(`DROP TABLE "commands"."commands"`);
  }
}
