import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { runMigrations } from '@fleet/platform';
import { querySchema } from '@fleet/query-api-service';

runMigrations(ServiceNames.queryApi, [querySchema]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
