import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Covering partial indexes of `vehicle_activity` for its two readers (docs/performance.md, Insights).
 * A vehicle's quarter hours lie scattered over the table among the fleet's (rows are appended as the
 * fleet reports), so a year's safety score read ~34,000 heap pages; most of its rows hold only resting
 * voltages, which the score ignores. Each reader now scans only its own rows, in index order, with
 * the columns it sums:
 * - the safety score: quarter hours with driving or idling;
 * - battery health: quarter hours with resting or cranking samples or engine starts.
 */
export class InsightIndexes1765000000000 implements MigrationInterface {
  name = 'InsightIndexes1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "vehicle_activity_driving_idx" ON "query"."vehicle_activity" ("vehicle_id", "quarter")
         INCLUDE ("distance_m", "driving_s", "speeding_s", "idle_s") WHERE "driving_s" > 0 OR "idle_s" > 0`,
    );
    await queryRunner.query(
      `CREATE INDEX "vehicle_activity_battery_idx" ON "query"."vehicle_activity" ("vehicle_id", "quarter")
         INCLUDE ("rest_count", "rest_sum_v", "rest_last_v", "rest_last_at", "crank_count", "crank_min_v", "starts")
         WHERE "rest_count" > 0 OR "crank_count" > 0 OR "starts" > 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "query"."vehicle_activity_battery_idx"`);
    await queryRunner.query(`DROP INDEX "query"."vehicle_activity_driving_idx"`);
  }
}
