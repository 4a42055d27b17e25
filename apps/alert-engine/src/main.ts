import '@fleet/platform-tracing'; // first: patches http, pg and kafkajs before they load (when tracing is on)
import 'reflect-metadata';
import { defaultHttpPorts, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { AlertEngineModule, readAlertEngineConfig } from '@fleet/alert-engine-service';

const service = ServiceNames.alertEngine;

void runService(
  service,
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: defaultHttpPorts[service] }),
    alertEngine: readAlertEngineConfig(env),
  }),
  (config) => [AlertEngineModule.forRoot(config.alertEngine)],
);
