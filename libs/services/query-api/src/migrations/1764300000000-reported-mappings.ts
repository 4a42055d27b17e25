import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marks each vehicle-to-company mapping whose vehicle has reported (`reported`), with a partial index
 * on (company_id, vehicle_id) over the marked ones. A company's last-position page and its total are
 * then index-only scans of that index. Before, the total probed last_positions once per mapped
 * vehicle, most of the statement's time (docs/performance.md).
 *
 * The flag only ever goes from false to true: last positions are never deleted. Who sets it, and why
 * the two writers cannot miss each other, is in PositionProjection.markReported and
 * replaceVehicleCompanies (vehicles/vehicle-registry.service.ts).
 */
export class ReportedMappings1764300000000 implements MigrationInterface {
  name = 'ReportedMappings1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "query"."vehicle_companies" ADD "reported" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`
      UPDATE "query"."vehicle_companies" vc SET "reported" = true
       WHERE EXISTS (SELECT 1 FROM "query"."last_positions" lp WHERE lp."vehicle_id" = vc."vehicle_id")`);
    await queryRunner.query(
      `CREATE INDEX "vehicle_companies_reported_idx" ON "query"."vehicle_companies" ("company_id", "vehicle_id") WHERE reported`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "query"."vehicle_companies_reported_idx"`);
    await queryRunner.query(`ALTER TABLE "query"."vehicle_companies" DROP "reported"`);
  }
}
