import 'reflect-metadata';
import { AuthModule, readAuthServiceConfig } from '@fleet/auth-service';
import { openApiDocument, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';

const service = ServiceNames.auth;

void runService(
  service,
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: 3001 }),
    authService: readAuthServiceConfig(env),
  }),
  (config) => [AuthModule.forRoot(config.authService)],
  // auth owns the document's routes in the distributed mode (route table).
  { openApiDocument },
);
