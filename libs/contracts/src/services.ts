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
 * Node options every service runs with, in the image, the compose stack, the Kubernetes manifests and
 * the benches (docs/performance.md has the runs):
 * - Capping the old generation makes V8 collect before the heap grows: under bench/ingest the
 *   services' peak resident memory fell from 280-360 MB to 170-190 MB while throughput stayed within
 *   the run-to-run spread. The live heap stays near 70 MB, far below it.
 * - A 32 MB young-generation semi-space (V8's default is 16 MB): a batch of positions waits ~300 ms
 *   for the broker's acknowledgement, long enough to outlive two scavenges at 16 MB and be promoted,
 *   and old-generation marking then took much of telemetry-ingest's CPU. The batch endpoint went from
 *   9,873-11,733 to 14,343-14,595 positions/s end to end; peak RSS rose to 209-214 MB.
 * V8 flags Node refuses in NODE_OPTIONS are set by each process itself (`serviceV8Flags` in
 * @fleet/platform).
 */
export const serviceNodeOptions = '--max-old-space-size=256 --max-semi-space-size=32';
