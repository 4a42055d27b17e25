import '@fleet/platform-tracing'; // first: patches http, pg and kafkajs before they load (when tracing is on)
import 'reflect-metadata';
import { defaultHttpPorts, ServiceNames } from '@fleet/contracts';
import { readServiceConfig, runService } from '@fleet/platform';
import { CommandGatewayModule, readCommandGatewayConfig } from '@fleet/command-gateway-service';

const service = ServiceNames.commandGateway;

void runService(
  service,
  (env) => ({
    ...readServiceConfig(service, env, { httpPort: defaultHttpPorts[service] }),
    commandGateway: readCommandGatewayConfig(env),
  }),
  (config) => [CommandGatewayModule.forRoot(config.commandGateway)],
);
