import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { runMigrations } from '@fleet/platform';
import { ingestSchema } from '@fleet/telemetry-ingest-service';

runMigrations(ServiceNames.telemetryIngest, [ingestSchema]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
