import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { MigrationStep, runMigrationsCommand } from '@fleet/platform';
import { ingestSchema } from '@fleet/telemetry-ingest-service';

/** This service's schema, for `node dist/apps/<service>/src/migrate.js` and the image's `node apps/migrate.js`. */
export const migration: MigrationStep = {
  service: ServiceNames.telemetryIngest,
  definitions: [ingestSchema],
};

if (require.main === module) runMigrationsCommand([migration]);
