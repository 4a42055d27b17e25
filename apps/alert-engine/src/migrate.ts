import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { runMigrations } from '@fleet/platform';
import { alertsSchema } from '@fleet/alert-engine-service';

runMigrations(ServiceNames.alertEngine, [alertsSchema]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
