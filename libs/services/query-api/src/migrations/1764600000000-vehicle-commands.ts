import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Vehicle commands applied by query-api (issue 19):
 * - `vehicles.odometer_offset_m`: what an `odometer` command adds to the device's readings (metres);
 * - `last_positions.device_odometer_m`: the device's own latest odometer reading, before any offset,
 *   which the next `odometer` command is computed against. Existing rows had no offset, so their
 *   shown reading is the device's;
 * - `applied_commands`: the commands already applied, so that a redelivered one changes nothing.
 */
export class VehicleCommands1764600000000 implements MigrationInterface {
  name = 'VehicleCommands1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "query"."vehicles" ADD "odometer_offset_m" double precision NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`ALTER TABLE "query"."last_positions" ADD "device_odometer_m" double precision`);
    await queryRunner.query(
      `UPDATE "query"."last_positions" SET "device_odometer_m" = ("readings"->>'odometerM')::double precision
        WHERE "readings" ? 'odometerM'`,
    );
    await queryRunner.query(`
      CREATE TABLE "query"."applied_commands" (
        "command_id" uuid NOT NULL,
        "vehicle_id" integer NOT NULL,
        "type" text NOT NULL,
        "applied_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_applied_commands" PRIMARY KEY ("command_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "applied_commands_applied_at_idx" ON "query"."applied_commands" ("applied_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."applied_commands"`);
    await queryRunner.query(`ALTER TABLE "query"."last_positions" DROP COLUMN "device_odometer_m"`);
    await queryRunner.query(`ALTER TABLE "query"."vehicles" DROP COLUMN "odometer_offset_m"`);
  }
}
