import { Column, Entity, MigrationInterface, PrimaryGeneratedColumn, QueryRunner } from 'typeorm';

/** One pending event, written in the same transaction as the fact it announces. */
export interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  payload: object;
  headers: Record<string, string>;
}

const entities = new Map<string, new () => OutboxRow>();
const migrations = new Map<string, new () => MigrationInterface>();

/** The `outbox` table of one service schema (an entity class per schema: TypeORM binds schema at decoration). */
export function outboxEntity(schema: string): new () => OutboxRow {
  let entity = entities.get(schema);
  if (!entity) {
    @Entity({ schema, name: 'outbox' })
    class OutboxEntry implements OutboxRow {
      @PrimaryGeneratedColumn({ type: 'bigint' })
      id!: string;

      @Column({ type: 'text' })
      topic!: string;

      @Column({ type: 'text' })
      key!: string;

      @Column({ type: 'jsonb' })
      payload!: object;

      @Column({ type: 'jsonb', default: () => "'{}'" })
      headers!: Record<string, string>;

      @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
      createdAt!: Date;
    }
    entity = OutboxEntry;
    entities.set(schema, entity);
  }
  return entity;
}

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
