import '@fleet/platform-tracing'; // first: patches http, pg and kafkajs before they load (when tracing is on)
import 'reflect-metadata';
import { defaultHttpPorts, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { readWebhookDispatcherConfig, WebhookDispatcherModule } from '@fleet/webhook-dispatcher-service';

const service = ServiceNames.webhookDispatcher;

void runService(
  service,
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: defaultHttpPorts[service] }),
    webhookDispatcher: readWebhookDispatcherConfig(env),
  }),
  (config) => [WebhookDispatcherModule.forRoot(config.webhookDispatcher)],
);
