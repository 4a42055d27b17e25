import { defaultHttpPorts, ServiceName, ServiceNames } from '@fleet/contracts';

/** The six services, in the order the stack starts them (auth first: the others learn companies from it). */
export const STACK_SERVICES: readonly ServiceName[] = [
  ServiceNames.auth,
  ServiceNames.queryApi,
  ServiceNames.telemetryIngest,
  ServiceNames.commandGateway,
  ServiceNames.alertEngine,
  ServiceNames.webhookDispatcher,
];

/** Services whose replicas share one port that cannot be doubled on one host: trackers connect to one port. */
const SINGLE_REPLICA: ReadonlySet<ServiceName> = new Set([ServiceNames.telemetryIngest]);

export interface StackOptions {
  /** Replicas per service (default 1). */
  replicas: Partial<Record<ServiceName, number>>;
  /** Added to every default port (services 3001–3006, entry 8080, trackers 5055, Kafka 9092/9093). */
  portOffset: number;
  /** Where secrets, logs, the broker's data and `stack.json` live. */
  dataDir: string;
  /** `nginx` (the production edge's configuration, when nginx is installed), `proxy` (the development proxy) or `auto`. */
  entry: 'nginx' | 'proxy' | 'auto';
  /** Seed the demo tenant and start the simulated fleet. */
  demo: boolean;
  /** An external broker instead of the stack's own. */
  kafkaBrokers?: string;
  /** PostgreSQL server; the stack creates its database in it. */
  databaseUrl: string;
  redisUrl: string;
}

/** One OS process of the stack: a replica of a service. */
export interface StackInstance {
  service: ServiceName;
  /** `query-api`, or `query-api-2` for a second replica. */
  name: string;
  replica: number;
  httpPort: number;
  /** telemetry-ingest's tracker port. */
  devicePort?: number;
}

export interface StackPlan {
  instances: StackInstance[];
  entryPort: number;
  devicePort: number;
  /** telemetry-ingest's Teltonika (TCP and UDP) and GT06 ports. */
  teltonikaPort: number;
  gt06Port: number;
  kafkaPort: number;
  kafkaControllerPort: number;
}

/** Replica `n` (from 1) of a service listens on its default port plus 100 × (n − 1). */
export function planStack(options: Pick<StackOptions, 'replicas' | 'portOffset'>): StackPlan {
  const offset = options.portOffset;
  const devicePort = 5055 + offset;
  const instances = STACK_SERVICES.flatMap((service) => {
    const count = options.replicas[service] ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 9)
      throw new Error(`replicas of ${service} must be 1 to 9, got ${count}`);
    if (count > 1 && SINGLE_REPLICA.has(service))
      throw new Error(`${service} runs once: trackers report to one port (${devicePort})`);
    return Array.from({ length: count }, (_, index) => ({
      service,
      name: index === 0 ? service : `${service}-${index + 1}`,
      replica: index + 1,
      httpPort: defaultHttpPorts[service] + offset + 100 * index,
      devicePort: service === ServiceNames.telemetryIngest ? devicePort : undefined,
    }));
  });
  return {
    instances,
    entryPort: 8080 + offset,
    devicePort,
    teltonikaPort: 5027 + offset,
    gt06Port: 5023 + offset,
    kafkaPort: 9092 + offset,
    kafkaControllerPort: 9093 + offset,
  };
}

/** `query-api=2,webhook-dispatcher=2` → replicas per service. */
export function parseReplicas(text: string): Partial<Record<ServiceName, number>> {
  const replicas: Partial<Record<ServiceName, number>> = {};
  for (const part of text.split(',').filter(Boolean)) {
    const [name, count] = part.split('=');
    if (!STACK_SERVICES.includes(name as ServiceName))
      throw new Error(`--replicas: unknown service "${name}" (one of ${STACK_SERVICES.join(', ')})`);
    if (!/^\d+$/.test(count ?? '')) throw new Error(`--replicas: "${part}" needs a count, like query-api=2`);
    replicas[name as ServiceName] = Number(count);
  }
  return replicas;
}
