import { DataSource } from 'typeorm';
import { EnvReader } from '../config/env-reader';
import { dataSourceOptions, migrateServiceSchema, ServiceSchema } from './service-schema';

/**
 * `migrate` entry point of a service: applies its pending migrations and exits. Used by the Nx
 * `migrate` targets and by deployments that run migrations as a separate step.
 */
export async function runMigrations(
  service: string,
  definitions: ServiceSchema[],
  env = new EnvReader(),
): Promise<void> {
  const url = env.url('DATABASE_URL', ['postgres', 'postgresql']);
  env.assertValid();
  for (const definition of definitions) {
    const dataSource = await new DataSource(
      dataSourceOptions(definition, { url, migrateOnStart: true, poolSize: 2 }, `${service}-migrate`),
    ).initialize();
    try {
      const applied = await migrateServiceSchema(dataSource, definition);
      process.stdout.write(
        `${JSON.stringify({ service, schema: definition.schema, applied, msg: applied.length ? 'migrations applied' : 'schema up to date' })}\n`,
      );
    } finally {
      await dataSource.destroy();
    }
  }
}
