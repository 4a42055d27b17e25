import '@fleet/platform-tracing'; // first: patches http, pg and kafkajs before they load (when tracing is on)
import 'reflect-metadata';
import { AuthModule, readAuthServiceConfig } from '@fleet/auth-service';
import { defaultHttpPorts, openApiDocument, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';

const service = ServiceNames.auth;

void runService(
  service,
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: defaultHttpPorts[service] }),
    authService: readAuthServiceConfig(env),
  }),
  (config) => [AuthModule.forRoot(config.authService)],
  // auth owns the document's and the console's routes in the distributed mode (route table).
  { openApiDocument, console: true },
);
