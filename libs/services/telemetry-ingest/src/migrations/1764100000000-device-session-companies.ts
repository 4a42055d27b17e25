import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The companies of each tracker's vehicle, from the vehicle snapshots: the batch endpoint accepts a
 * position only from a token that reaches the vehicle. Rows projected before stay null (reached by no
 * token) until the vehicle's next snapshot.
 */
export class DeviceSessionCompanies1764100000000 implements MigrationInterface {
  name = 'DeviceSessionCompanies1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ingest"."device_sessions" ADD COLUMN "company_ids" integer[]`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ingest"."device_sessions" DROP COLUMN "company_ids"`);
  }
}
