import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { runMigrations } from '@fleet/platform';
import { webhooksSchema } from '@fleet/webhook-dispatcher-service';

runMigrations(ServiceNames.webhookDispatcher, [webhooksSchema]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
