import { DataSource } from 'typeorm';
import { ConfigError, EnvReader } from '../config/env-reader';
import { waitForPostgres } from '../runtime/dependency-check';
import { ExitCodes, StartupError } from '../runtime/exit-codes';
import { retryOnConnectionFailure } from './connection-retry';
import { dataSourceOptions, migrateServiceSchema, ServiceSchema } from './service-schema';

/** What one service migrates: its schema definitions, in order. Each service's `migrate.ts` exports one. */
export interface MigrationStep {
  service: string;
  definitions: ServiceSchema[];
}

/**
 * Applies the pending migrations of `steps` in order, printing one JSON line per schema. It first
 * waits up to STARTUP_WAIT_SECONDS (120 by default) for PostgreSQL, trying again with a new
 * connection every half second, and tries a step again when its connection is lost, within the same
 * time: a migration started with its database (compose, a Job beside a database that is restarting)
 * waits in this process rather than failing and starting over.
 */
export async function runMigrations(steps: MigrationStep[], env = new EnvReader()): Promise<void> {
  const url = env.url('DATABASE_URL', ['postgres', 'postgresql']);
  const waitMs = env.int('STARTUP_WAIT_SECONDS', 120, { min: 1, max: 3_600 }) * 1000;
  env.assertValid();
  await waitForPostgres(url, waitMs);
  for (const { service, definitions } of steps) {
    for (const definition of definitions) {
      // A connection lost on the way (a container network reloading) is tried again: each migration
      // runs in its own transaction, so a repeated step applies only what is still pending.
      const applied = await retryOnConnectionFailure(async () => {
        const dataSource = await new DataSource(
          dataSourceOptions(definition, { url, migrateOnStart: true, poolSize: 2 }, `${service}-migrate`),
        ).initialize();
        try {
          return await migrateServiceSchema(dataSource, definition);
        } finally {
          await dataSource.destroy();
        }
      }, waitMs);
      process.stdout.write(
        `${JSON.stringify({ service, schema: definition.schema, applied, msg: applied.length ? 'migrations applied' : 'schema up to date' })}\n`,
      );
    }
  }
}

/**
 * `migrate` as a command (the Nx `migrate` targets, the image's `node apps/migrate.js <service>…`):
 * exit 0 once every step is applied; otherwise the reason on stderr and exit 69 (PostgreSQL
 * unreachable), 78 (a wrong setting, password or database name) or 1 (a migration failed).
 */
export function runMigrationsCommand(steps: MigrationStep[]): void {
  runMigrations(steps).catch((error: unknown) => {
    if (error instanceof StartupError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(error instanceof StartupError ? error.exitCode : ExitCodes.config);
    }
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
