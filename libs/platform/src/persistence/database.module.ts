import { DynamicModule, Inject, Injectable, Logger, Module, OnModuleInit, Provider } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ServiceConfig } from '../config/service-config';
import { SERVICE_CONFIG } from '../config/service-config.token';
import { HealthRegistry } from '../health/health.registry';
import { EventPublisher } from '../messaging/message';
import { FleetMetrics } from '../metrics/fleet-metrics';
import { ExitCodes, StartupError } from '../runtime/exit-codes';
import { ping } from './catalog.queries';
import { Outbox } from './outbox/outbox';
import { dataSourceOptions, migrateServiceSchema, pendingMigrations, ServiceSchema } from './service-schema';

/** Applies migrations before the service serves traffic (if configured) and reports the database's health. */
function schemaLifecycle(definition: ServiceSchema) {
  @Injectable()
  class SchemaLifecycle implements OnModuleInit {
    private readonly logger = new Logger(`Database:${definition.schema}`);

    constructor(
      @Inject(getDataSourceToken(definition.schema)) private readonly dataSource: DataSource,
      @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
      health: HealthRegistry,
    ) {
      health.register({
        name: `database:${definition.schema}`,
        check: () => ping(dataSource),
      });
    }

    async onModuleInit(): Promise<void> {
      if (!this.config.database.migrateOnStart) return this.assertMigrated();
      const applied = await migrateServiceSchema(this.dataSource, definition);
      if (applied.length > 0) this.logger.log({ msg: 'migrations applied', migrations: applied });
    }

    /**
     * With DB_MIGRATE_ON_START=false someone else migrates (a Job, the migrate command): a schema
     * they have not migrated yet would fail later on "relation does not exist", so stop now and say how.
     */
    private async assertMigrated(): Promise<void> {
      const pending = await pendingMigrations(this.dataSource, definition);
      if (pending.length === 0) return;
      const app = this.config.service;
      throw new StartupError(
        ExitCodes.config,
        `migrations pending for schema "${definition.schema}": run \`node dist/apps/${app}/src/migrate.js\` ` +
          '(or set DB_MIGRATE_ON_START=true)',
        { setting: 'DB_MIGRATE_ON_START', schema: definition.schema, pending },
      );
    }
  }
  return SchemaLifecycle;
}

export function outboxToken(schema: string): string {
  return `Outbox:${schema}`;
}

/** Injects the {@link Outbox} of a service schema declared with `outbox: true`. */
export const InjectOutbox = (schema: string) => Inject(outboxToken(schema));

function outboxProvider(schema: string): Provider {
  return {
    provide: outboxToken(schema),
    inject: [getDataSourceToken(schema), EventPublisher, FleetMetrics, SERVICE_CONFIG],
    useFactory: (
      dataSource: DataSource,
      publisher: EventPublisher,
      metrics: FleetMetrics,
      config: ServiceConfig,
    ) => {
      const outbox = new Outbox(dataSource, schema, publisher, {
        notifications: { connectionString: config.database.url },
      });
      metrics.addOutbox({ schema, backlog: () => outbox.backlog() });
      return outbox;
    },
  };
}

/**
 * Wires a service's own schema: a DataSource named after the schema, its repositories, migrations at
 * start. Services inject with `@InjectRepository(Entity, schema)` or `@InjectDataSource(schema)`.
 */
@Module({})
export class DatabaseModule {
  static forService(definition: ServiceSchema): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          name: definition.schema,
          inject: [SERVICE_CONFIG],
          useFactory: (config: ServiceConfig) =>
            dataSourceOptions(definition, config.database, config.service),
        }),
        TypeOrmModule.forFeature(definition.entities as never, definition.schema),
      ],
      providers: [
        schemaLifecycle(definition),
        ...(definition.outbox ? [outboxProvider(definition.schema)] : []),
      ],
      exports: [TypeOrmModule, ...(definition.outbox ? [outboxToken(definition.schema)] : [])],
    };
  }
}
