import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateVehicleRegistry1763900000000 implements MigrationInterface {
  name = 'CreateVehicleRegistry1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "query"."vehicles" (
        "id" SERIAL NOT NULL,
        "name" text NOT NULL,
        "imei" text NOT NULL,
        "vin" text,
        "version" integer NOT NULL DEFAULT 1,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_vehicles" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "vehicles_imei_key" ON "query"."vehicles" ("imei")`);
    await queryRunner.query(`
      CREATE TABLE "query"."vehicle_companies" (
        "vehicle_id" integer NOT NULL,
        "company_id" integer NOT NULL,
        CONSTRAINT "PK_vehicle_companies" PRIMARY KEY ("vehicle_id", "company_id"),
        CONSTRAINT "vehicle_companies_vehicle_fk" FOREIGN KEY ("vehicle_id") REFERENCES "query"."vehicles"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "vehicle_companies_company_idx" ON "query"."vehicle_companies" ("company_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."vehicle_companies"`);
    await queryRunner.query(`DROP TABLE "query"."vehicles"`);
  }
}
