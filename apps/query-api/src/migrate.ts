import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { MigrationStep, runMigrationsCommand } from '@fleet/platform';
import { querySchema } from '@fleet/query-api-service';

/** This service's schema, for `node dist/apps/<service>/src/migrate.js` and the image's `node apps/migrate.js`. */
export const migration: MigrationStep = { service: ServiceNames.queryApi, definitions: [querySchema] };

if (require.main === module) runMigrationsCommand([migration]);
