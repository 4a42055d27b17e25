import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Resting-voltage sums per vehicle and hour (docs/insights.md, How battery health is read): battery
 * health read ~2,400 quarter-hour rows per vehicle and month, and a page of 50 took about a second.
 * An hour row replaces four quarter rows for zones whose offset is a whole number of hours; the
 * quarter rows stay, for the others and for the window's edges. Filled from the quarters written so far.
 */
export class RestingHours1765300000000 implements MigrationInterface {
  name = 'RestingHours1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "query"."vehicle_rest_hours" (
         "vehicle_id" integer NOT NULL,
         "hour" timestamptz NOT NULL,
         "rest_count" integer NOT NULL,
         "rest_sum_v" double precision NOT NULL,
         "first_quarter" timestamptz NOT NULL,
         "last_quarter" timestamptz NOT NULL,
         "rest_last_v" real NOT NULL,
         "rest_last_at" timestamptz NOT NULL,
         CONSTRAINT "PK_vehicle_rest_hours" PRIMARY KEY ("vehicle_id", "hour"))`,
    );
    await queryRunner.query(
      `INSERT INTO "query"."vehicle_rest_hours"
         SELECT vehicle_id, date_trunc('hour', quarter AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sum(rest_count), sum(rest_sum_v), min(quarter), max(quarter),
                (array_agg(rest_last_v ORDER BY rest_last_at DESC))[1], max(rest_last_at)
           FROM "query"."vehicle_activity"
          WHERE rest_count > 0 AND rest_last_at IS NOT NULL
          GROUP BY 1, 2`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "query"."vehicle_rest_hours"`);
  }
}
