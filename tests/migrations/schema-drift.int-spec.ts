import { dataSourceOptions, migrateServiceSchema } from '@fleet/platform';
import { createTestDatabase, TestDatabase } from '@fleet/testing';
import { DataSource } from 'typeorm';
import { serviceSchemas } from '../service-schemas';

/**
 * Entities and migrations must describe the same tables: after all migrations, TypeORM must find
 * nothing to change. A new column without a migration (or the reverse) fails here, not in production.
 */
describe('service schemas', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it('gives every service a schema of its own', () => {
    const schemas = Object.values(serviceSchemas).map((definition) => definition.schema);
    expect(new Set(schemas).size).toBe(schemas.length);
  });

  it.each(Object.entries(serviceSchemas))(
    '%s: entities stay inside the service schema',
    async (_service, definition) => {
      const dataSource = new DataSource(
        dataSourceOptions(
          definition,
          { url: database.url, migrateOnStart: false, poolSize: 1 },
          'drift-test',
        ),
      );
      await dataSource.initialize();
      try {
        for (const entity of dataSource.entityMetadatas) {
          expect(`${entity.schema}.${entity.tableName}`).toBe(`${definition.schema}.${entity.tableName}`);
        }
      } finally {
        await dataSource.destroy();
      }
    },
  );

  it.each(Object.entries(serviceSchemas))(
    '%s: migrations produce exactly what the entities describe',
    async (_service, definition) => {
      const dataSource = new DataSource(
        dataSourceOptions(definition, { url: database.url, migrateOnStart: true, poolSize: 2 }, 'drift-test'),
      );
      await dataSource.initialize();
      try {
        await migrateServiceSchema(dataSource, definition);
        const pending = await dataSource.driver.createSchemaBuilder().log();
        expect(pending.upQueries.map((query) => query.query)).toEqual([]);
        // Running them again applies nothing: a deployment may run migrations any number of times.
        await expect(migrateServiceSchema(dataSource, definition)).resolves.toEqual([]);
      } finally {
        await dataSource.destroy();
      }
    },
  );
});
