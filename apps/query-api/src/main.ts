import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { QueryApiModule } from '@fleet/query-api-service';

const service = ServiceNames.queryApi;

void runService(
  service,
  (env) => readServiceConfig(service, env, { httpPort: 3003 }),
  () => [QueryApiModule],
);
