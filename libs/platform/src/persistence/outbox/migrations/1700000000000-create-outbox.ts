import { MigrationInterface, QueryRunner } from 'typeorm';

const migrations = new Map<string, new () => MigrationInterface>();

/** Creates the outbox table; runs before a service's own migrations (its timestamp is the oldest). */
export function outboxMigration(schema: string): new () => MigrationInterface {
  let migration = migrations.get(schema);
  if (!migration) {
    const name = `CreateOutbox1700000000000`;
    migration = class implements MigrationInterface {
      name = name;
      async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
          CREATE TABLE "${schema}"."outbox" (
            "id" BIGSERIAL NOT NULL,
            "topic" text NOT NULL,
            "key" text NOT NULL,
            "payload" jsonb NOT NULL,
            "headers" jsonb NOT NULL DEFAULT '{}',
            "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
            CONSTRAINT "PK_${schema}_outbox" PRIMARY KEY ("id")
          )`);
      }
      async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "${schema}"."outbox"`);
      }
    };
    Object.defineProperty(migration, 'name', { value: name });
    migrations.set(schema, migration);
  }
  return migration;
}
