import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { runMigrations } from '@fleet/platform';
import { commandsSchema } from '@fleet/command-gateway-service';

runMigrations(ServiceNames.commandGateway, [commandsSchema]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
