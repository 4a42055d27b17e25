import '@fleet/platform-tracing'; // first: patches http, pg and kafkajs before they load (when tracing is on)
import 'reflect-metadata';
import { defaultHttpPorts, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { QueryApiModule, readQueryApiConfig } from '@fleet/query-api-service';

const service = ServiceNames.queryApi;

void runService(
  service,
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: defaultHttpPorts[service] }),
    queryApi: readQueryApiConfig(env),
  }),
  (config) => [QueryApiModule.forRoot(config.queryApi)],
);
