import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Vehicle tags (issue 17): alert configurations cover vehicles by tag, and the tags reach alert-engine
 * in the vehicle snapshots. Existing vehicles get none. No index: query-api never looks vehicles up
 * by tag; the consumers keep their own projections.
 */
export class VehicleTags1764500000000 implements MigrationInterface {
  name = 'VehicleTags1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "query"."vehicles" ADD "tags" text array NOT NULL DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "query"."vehicles" DROP COLUMN "tags"`);
  }
}
