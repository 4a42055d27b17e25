import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePositions1763800000000 implements MigrationInterface {
  name = 'CreatePositions1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "query"."positions" (
        "event_id" uuid NOT NULL,
        "vehicle_id" integer NOT NULL,
        "imei" text NOT NULL,
        "fix_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "lat" double precision NOT NULL,
        "lng" double precision NOT NULL,
        "speed_kmh" real,
        "course" smallint,
        "altitude_m" real,
        "ignition" boolean,
        "stored_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_positions" PRIMARY KEY ("event_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "positions_vehicle_fix_time_idx" ON "query"."positions" ("vehicle_id", "fix_time")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."positions"`);
  }
}
