import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery keeps the W3C `traceparent` of the fired alert it was planned from, so that its attempts,
 * made later by whichever replica claims it, continue that alert's trace (docs/tracing.md). Null when
 * tracing was off.
 */
export class DeliveryTraceparent1765100000000 implements MigrationInterface {
  name = 'DeliveryTraceparent1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks"."deliveries" ADD "traceparent" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks"."deliveries" DROP COLUMN "traceparent"`);
  }
}
