import 'reflect-metadata';
import { defaultHttpPorts, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { AlertEngineModule } from '@fleet/alert-engine-service';

const service = ServiceNames.alertEngine;

void runService(
  service,
  (env) => readServiceConfig(service, env, { httpPort: defaultHttpPorts[service] }),
  () => [AlertEngineModule],
);
