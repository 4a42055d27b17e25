import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { MigrationStep, runMigrationsCommand } from '@fleet/platform';
import { alertsSchema } from '@fleet/alert-engine-service';

/** This service's schema, for `node dist/apps/<service>/src/migrate.js` and the image's `node apps/migrate.js`. */
export const migration: MigrationStep = { service: ServiceNames.alertEngine, definitions: [alertsSchema] };

if (require.main === module) runMigrationsCommand([migration]);
