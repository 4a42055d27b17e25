import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { DatabaseConfig } from '../config/service-config';
import {
  advisoryLock,
  advisoryUnlock,
  appliedMigrationNames,
  createSchema,
  relationExists,
} from './catalog.queries';
import { outboxMigration } from './outbox/migrations/1700000000000-create-outbox';
import { outboxEntity } from './outbox/outbox.schema';
import { fastTimestampTypes } from './timestamp-parser';

/**
 * The tables one service owns: a PostgreSQL schema of its own, its entities and its migrations
 * (with their own `migrations` table inside the schema). No other service reads or writes them.
 */
export interface ServiceSchema {
  /** PostgreSQL schema name; also the name of the service's TypeORM DataSource. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  /**
   * The service publishes facts through a transactional outbox: its schema gets an `outbox` table
   * (entity and migration added here, so the drift test covers them) and an {@link Outbox} provider.
   */
  outbox?: boolean;
}

function asArray<T>(list: MixedList<T>): T[] {
  return Array.isArray(list) ? list : Object.values(list);
}

export function dataSourceOptions(
  definition: ServiceSchema,
  database: DatabaseConfig,
  applicationName: string,
): DataSourceOptions {
  return {
    type: 'postgres',
    name: definition.schema,
    url: database.url,
    schema: definition.schema,
    entities: definition.outbox
      ? [...asArray(definition.entities), outboxEntity(definition.schema)]
      : definition.entities,
    migrations: definition.outbox
      ? [outboxMigration(definition.schema), ...asArray(definition.migrations)]
      : definition.migrations,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    applicationName,
    extra: { max: database.poolSize, connectionTimeoutMillis: 5_000, types: fastTimestampTypes },
  };
}

/**
 * Creates the schema and applies pending migrations, each in its own transaction. An advisory lock
 * makes replicas that start together take turns instead of racing on the same migration.
 */
export async function migrateServiceSchema(
  dataSource: DataSource,
  definition: ServiceSchema,
): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const lockKey = `fleet-migrations:${definition.schema}`;
  try {
    await advisoryLock(runner, lockKey);
    await createSchema(runner, definition.schema);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await advisoryUnlock(runner, lockKey).catch(() => undefined);
    await runner.release();
  }
}

/**
 * The names of the migrations of `definition` not yet applied, read without writing anything (unlike
 * TypeORM's `showMigrations`, which creates the migrations table, and fails when the schema is missing).
 */
export async function pendingMigrations(
  dataSource: DataSource,
  definition: ServiceSchema,
): Promise<string[]> {
  const known = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  if (!(await relationExists(dataSource, `"${definition.schema}".migrations`))) return known;
  const applied = new Set(await appliedMigrationNames(dataSource, definition.schema));
  return known.filter((name) => !applied.has(name));
}
