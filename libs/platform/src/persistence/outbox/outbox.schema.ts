import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One pending event, written in the same transaction as the fact it announces. */
export interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  payload: object;
  headers: Record<string, string>;
}

const entities = new Map<string, new () => OutboxRow>();

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
