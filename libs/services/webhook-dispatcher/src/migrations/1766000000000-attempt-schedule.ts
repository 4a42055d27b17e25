import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each attempt records when its outcome was settled and, after a failure with another attempt to
 * come, the time that next attempt was scheduled for: the retry schedule as the system applied it,
 * which the delivery log can show and a test can check without timing the receiver. Null for attempts
 * recorded before this migration.
 */
export class AttemptSchedule1766000000000 implements MigrationInterface {
  name = 'AttemptSchedule1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhooks"."delivery_attempts" ADD "settled_at" TIMESTAMP WITH TIME ZONE, ADD "retry_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhooks"."delivery_attempts" DROP COLUMN "retry_at", DROP COLUMN "settled_at"`,
    );
  }
}
