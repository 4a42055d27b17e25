/**
 * The deployable services. Each name is also the service's Kafka consumer group,
 * its PostgreSQL schema owner and its log `service` field.
 */
export const ServiceNames = {
  auth: 'auth',
  telemetryIngest: 'telemetry-ingest',
  queryApi: 'query-api',
  commandGateway: 'command-gateway',
  alertEngine: 'alert-engine',
  webhookDispatcher: 'webhook-dispatcher',
} as const;

export type ServiceName = (typeof ServiceNames)[keyof typeof ServiceNames];

export const allServiceNames: readonly ServiceName[] = Object.values(ServiceNames);
