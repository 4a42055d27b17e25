import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * History keeps its readings as `json` (the text as sent) instead of `jsonb` (decision 0019): nothing
 * reads inside a history row's readings in SQL (routes and the live stream return them whole), and
 * parsing each row's readings into jsonb was a fifth of the history insert's cost, the projection's
 * largest statement. Last positions keep `jsonb`: their readings are read by key.
 *
 * Rewrites every history partition under an exclusive lock: on a deployment with a long history, plan
 * the upgrade's window by its size (decision 0019 gives the rate measured).
 */
export class HistoryReadingsJson1765400000000 implements MigrationInterface {
  name = 'HistoryReadingsJson1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "query"."positions" ALTER COLUMN "readings" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "query"."positions" ALTER COLUMN "readings" TYPE json USING "readings"::json`,
    );
    await queryRunner.query(`ALTER TABLE "query"."positions" ALTER COLUMN "readings" SET DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "query"."positions" ALTER COLUMN "readings" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "query"."positions" ALTER COLUMN "readings" TYPE jsonb USING "readings"::jsonb`,
    );
    await queryRunner.query(`ALTER TABLE "query"."positions" ALTER COLUMN "readings" SET DEFAULT '{}'`);
  }
}
