import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { QueryApiModule, readQueryApiConfig } from '@fleet/query-api-service';

const service = ServiceNames.queryApi;

void runService(
  service,
  (env) => ({ ...readServiceConfig(service, env, { httpPort: 3003 }), queryApi: readQueryApiConfig(env) }),
  (config) => [QueryApiModule.forRoot(config.queryApi)],
);
