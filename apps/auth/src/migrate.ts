import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { runMigrations } from '@fleet/platform';
import { authSchema } from '@fleet/auth-service';

runMigrations(ServiceNames.auth, [authSchema]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
