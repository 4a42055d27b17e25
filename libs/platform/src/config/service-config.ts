import { hostname } from 'node:os';
import { EnvReader } from './env-reader';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface HttpConfig {
  host: string;
  port: number;
}

export interface DatabaseConfig {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Run pending migrations of the service's schemas before it serves traffic. */
  migrateOnStart: boolean;
  poolSize: number;
}

export interface KafkaConfig {
  brokers: string[];
  clientId: string;
  /** Create missing topics from the contracts catalog at start. */
  provisionTopics: boolean;
  /**
   * Optional prefix of every topic and consumer group (`<namespace>.<topic>`), so that several
   * environments (or test runs) can share one cluster without seeing each other's messages.
   */
  namespace?: string;
  /**
   * How long the broker waits for a silent consumer before giving its partitions to another member.
   * Shorter means faster recovery after a crash; the consumer heartbeats between batches and retries.
   */
  sessionTimeoutMs: number;
}

/** The broker-side name of a catalog topic or consumer group. */
export function namespaced(config: Pick<KafkaConfig, 'namespace'>, name: string): string {
  return config.namespace ? `${config.namespace}.${name}` : name;
}

export type MessagingConfig = { transport: 'kafka'; kafka: KafkaConfig } | { transport: 'in-process' };

export interface ServiceConfig {
  /** Service name: log field, Kafka client id prefix. */
  service: string;
  http: HttpConfig;
  database: DatabaseConfig;
  messaging: MessagingConfig;
  log: { level: LogLevel };
}

export interface ServiceConfigDefaults {
  httpPort: number;
  /** The embedded app supplies its own database; distributed services must be told where it is. */
  databaseUrl?: string;
  transport?: MessagingConfig['transport'];
}

/** Settings every service shares. Service-specific settings are read beside it with the same reader. */
export function readServiceConfig(
  service: string,
  env: EnvReader,
  defaults: ServiceConfigDefaults,
): ServiceConfig {
  const transport = env.oneOf(
    'MESSAGING_TRANSPORT',
    ['kafka', 'in-process'] as const,
    defaults.transport ?? 'kafka',
  );
  return {
    service,
    http: {
      host: env.string('HTTP_HOST', '0.0.0.0'),
      port: env.port('HTTP_PORT', defaults.httpPort),
    },
    database: {
      url: env.url('DATABASE_URL', ['postgres', 'postgresql'], defaults.databaseUrl),
      migrateOnStart: env.bool('DB_MIGRATE_ON_START', true),
      poolSize: env.int('DB_POOL_SIZE', 10, { min: 1, max: 200 }),
    },
    messaging:
      transport === 'kafka'
        ? {
            transport,
            kafka: {
              brokers: env.list('KAFKA_BROKERS'),
              clientId: env.string('KAFKA_CLIENT_ID', `${service}-${hostname()}`),
              provisionTopics: env.bool('KAFKA_PROVISION_TOPICS', true),
              namespace: env.optionalString('KAFKA_NAMESPACE'),
              sessionTimeoutMs: env.int('KAFKA_SESSION_TIMEOUT_MS', 10_000, { min: 6_000, max: 300_000 }),
            },
          }
        : { transport },
    log: {
      level: env.oneOf(
        'LOG_LEVEL',
        ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
        'info',
      ),
    },
  };
}
