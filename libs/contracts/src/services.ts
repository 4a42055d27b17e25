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

/**
 * Each service's default HTTP port (`HTTP_PORT` overrides it). Distinct, so that the services can run
 * side by side on one machine; the compose stack and the Kubernetes manifests use the same numbers.
 */
export const defaultHttpPorts: Readonly<Record<ServiceName, number>> = {
  auth: 3001,
  'telemetry-ingest': 3002,
  'query-api': 3003,
  'command-gateway': 3004,
  'alert-engine': 3005,
  'webhook-dispatcher': 3006,
};

/** telemetry-ingest's tracker-facing OsmAnd port (`INGEST_DEVICE_PORT` overrides it). */
export const defaultDevicePort = 5055;

/**
 * telemetry-ingest's binary tracker ports, the ones installers already configure on these devices:
 * Teltonika over TCP and UDP (`INGEST_TELTONIKA_PORT`), Concox GT06 over TCP (`INGEST_GT06_PORT`).
 */
export const defaultTrackerPorts = { teltonika: 5027, gt06: 5023 } as const;
