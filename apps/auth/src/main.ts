import 'reflect-metadata';
import { AuthModule, readAuthServiceConfig } from '@fleet/auth-service';
import { ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';

const service = ServiceNames.auth;

void runService(
  service,
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: 3001 }),
    authService: readAuthServiceConfig(env),
  }),
  (config) => [AuthModule.forRoot(config.authService)],
);
