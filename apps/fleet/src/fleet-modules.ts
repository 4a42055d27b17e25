import { AlertEngineConfig, AlertEngineModule } from '@fleet/alert-engine-service';
import { AuthModule, AuthServiceConfig } from '@fleet/auth-service';
import { CommandGatewayConfig, CommandGatewayModule } from '@fleet/command-gateway-service';
import { QueryApiConfig, QueryApiModule } from '@fleet/query-api-service';
import { TelemetryIngestConfig, TelemetryIngestModule } from '@fleet/telemetry-ingest-service';
import { WebhookDispatcherConfig, WebhookDispatcherModule } from '@fleet/webhook-dispatcher-service';
import { DynamicModule, Type } from '@nestjs/common';

/** Every service module: what the embedded app runs, and what the OpenAPI document describes. */
export function fleetModules(config: {
  authService: AuthServiceConfig;
  ingest: TelemetryIngestConfig;
  queryApi: QueryApiConfig;
  commandGateway: CommandGatewayConfig;
  alertEngine: AlertEngineConfig;
  webhookDispatcher: WebhookDispatcherConfig;
}): (Type | DynamicModule)[] {
  return [
    AuthModule.forRoot(config.authService),
    TelemetryIngestModule.forRoot(config.ingest),
    QueryApiModule.forRoot(config.queryApi),
    CommandGatewayModule.forRoot(config.commandGateway),
    AlertEngineModule.forRoot(config.alertEngine),
    WebhookDispatcherModule.forRoot(config.webhookDispatcher),
  ];
}
