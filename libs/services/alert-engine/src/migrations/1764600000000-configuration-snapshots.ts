import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert configurations get a version, and every configuration that exists is announced once on
 * `alerts.configuration-snapshots.v1` (an outbox row each), so that webhook-dispatcher's projection
 * also knows the configurations created before the topic existed.
 */
export class ConfigurationSnapshots1764600000000 implements MigrationInterface {
  name = 'ConfigurationSnapshots1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "alerts"."configurations" ADD "version" integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`
      INSERT INTO "alerts"."outbox" (topic, key, payload)
      SELECT 'alerts.configuration-snapshots.v1', id::text, jsonb_build_object(
        'configurationId', id,
        'companyId', company_id,
        'alertTypeId', alert_type_id,
        'isActive', is_active,
        'deleted', deleted_at IS NOT NULL,
        'version', version,
        'updatedAt', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      FROM "alerts"."configurations" ORDER BY id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "alerts"."configurations" DROP COLUMN "version"`);
  }
}
