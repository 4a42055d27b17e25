import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * webhook-dispatcher's tables: webhooks and the configurations they link, its projection of alert
 * configurations, and deliveries with their attempts (the schedule of retries lives here).
 */
export class CreateWebhooks1764600000000 implements MigrationInterface {
  name = 'CreateWebhooks1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhooks"."webhooks" (
        "id" SERIAL NOT NULL,
        "company_id" integer NOT NULL,
        "url" text NOT NULL,
        "is_active" boolean NOT NULL DEFAULT true,
        "is_global" boolean NOT NULL DEFAULT false,
        "secret_ciphertext" bytea NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "deleted_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_webhooks_webhooks" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "webhooks_company_idx" ON "webhooks"."webhooks" ("company_id", "id") WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE "webhooks"."webhook_alerts" (
        "webhook_id" integer NOT NULL,
        "configuration_id" integer NOT NULL,
        "linked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_webhooks_webhook_alerts" PRIMARY KEY ("webhook_id", "configuration_id"),
        CONSTRAINT "FK_webhooks_webhook_alerts_webhook" FOREIGN KEY ("webhook_id")
          REFERENCES "webhooks"."webhooks" ("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "webhook_alerts_configuration_idx" ON "webhooks"."webhook_alerts" ("configuration_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "webhooks"."alert_configurations" (
        "configuration_id" integer NOT NULL,
        "company_id" integer NOT NULL,
        "alert_type_id" smallint NOT NULL,
        "is_active" boolean NOT NULL,
        "deleted" boolean NOT NULL,
        "version" bigint NOT NULL,
        CONSTRAINT "PK_webhooks_alert_configurations" PRIMARY KEY ("configuration_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "webhooks"."deliveries" (
        "id" uuid NOT NULL,
        "webhook_id" integer NOT NULL,
        "alert_event_id" uuid NOT NULL,
        "redelivery_of" uuid,
        "configuration_id" integer NOT NULL,
        "alert_type_id" smallint NOT NULL,
        "body" text NOT NULL,
        "status" text NOT NULL,
        "attempts" smallint NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMP WITH TIME ZONE,
        "lease_until" TIMESTAMP WITH TIME ZONE,
        "outcome" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "finished_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_webhooks_deliveries" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_webhooks_deliveries_status"
          CHECK ("status" IN ('pending', 'delivered', 'failed', 'dropped', 'cancelled'))
      )`);
    // A fired alert consumed twice makes one delivery per webhook; a redelivery is a delivery of its own.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "deliveries_alert_webhook_key" ON "webhooks"."deliveries" ("alert_event_id", "webhook_id")
       WHERE "redelivery_of" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "deliveries_due_idx" ON "webhooks"."deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "deliveries_webhook_idx" ON "webhooks"."deliveries" ("webhook_id", "created_at" DESC, "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "deliveries_finished_idx" ON "webhooks"."deliveries" ("finished_at") WHERE "finished_at" IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE "webhooks"."delivery_attempts" (
        "delivery_id" uuid NOT NULL,
        "attempt" smallint NOT NULL,
        "delivery_uuid" uuid NOT NULL,
        "started_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "duration_ms" integer NOT NULL,
        "status_code" smallint,
        "error" text,
        "response_excerpt" text,
        "redirected_to" text,
        CONSTRAINT "PK_webhooks_delivery_attempts" PRIMARY KEY ("delivery_id", "attempt"),
        CONSTRAINT "FK_webhooks_delivery_attempts_delivery" FOREIGN KEY ("delivery_id")
          REFERENCES "webhooks"."deliveries" ("id") ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhooks"."delivery_attempts"`);
    await queryRunner.query(`DROP TABLE "webhooks"."deliveries"`);
    await queryRunner.query(`DROP TABLE "webhooks"."alert_configurations"`);
    await queryRunner.query(`DROP TABLE "webhooks"."webhook_alerts"`);
    await queryRunner.query(`DROP TABLE "webhooks"."webhooks"`);
  }
}
