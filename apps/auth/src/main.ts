import 'reflect-metadata';
import { ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { AuthModule } from '@fleet/auth-service';

const service = ServiceNames.auth;

void runService(
  service,
  (env) => readServiceConfig(service, env, { httpPort: 3001 }),
  () => [AuthModule],
);
