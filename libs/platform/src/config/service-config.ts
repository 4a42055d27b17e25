import { hostname } from 'node:os';
import { toFrameworkPath } from '@fleet/contracts';
import { assertValidRateLimitWindows, RateLimitPolicy, RateLimitWindow } from '../rate-limit/rate-limit';
import { parseAddressBlock } from './address-block';
import { EnvReader } from './env-reader';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface HttpConfig {
  host: string;
  port: number;
  /**
   * Peers whose `X-Forwarded-For` is believed (addresses, CIDR blocks, or `loopback`, `linklocal`,
   * `uniquelocal`); empty (`HTTP_TRUSTED_PROXIES=none`): none, the client address is the TCP peer's. The client address is what
   * failed-login throttling counts by, so a client must never be able to choose it.
   */
  trustedProxies: string[];
}

/** Where a service runs behind the edge: its proxies are on the cluster's private network. */
export const PRIVATE_NETWORK_PROXIES = ['loopback', 'linklocal', 'uniquelocal'];
const PROXY_NAMES = new Set(PRIVATE_NETWORK_PROXIES);

function isProxyEntry(entry: string): boolean {
  return PROXY_NAMES.has(entry) || parseAddressBlock(entry) !== undefined;
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
  /** Replicas of each topic that provisioning creates: 1 on a one-broker cluster, usually 3 beyond. */
  replicationFactor: number;
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
  /**
   * The Kafka client library: kafkajs, or @platformatic/kafka on trial (decision 0017). The transport's
   * behaviour is the same with either, so one service can run on the trial while the others stay.
   */
  client: KafkaClientName;
}

export const kafkaClientNames = ['kafkajs', 'platformatic'] as const;
export type KafkaClientName = (typeof kafkaClientNames)[number];

/** The broker-side name of a catalog topic or consumer group. */
export function namespaced(config: Pick<KafkaConfig, 'namespace'>, name: string): string {
  return config.namespace ? `${config.namespace}.${name}` : name;
}

export type MessagingConfig = { transport: 'kafka'; kafka: KafkaConfig } | { transport: 'in-process' };

export interface ServiceConfig {
  /** Service name: log field, Kafka client id prefix. */
  service: string;
  auth: {
    /** HS256 key every service verifies bearer tokens with (auth also signs with it). */
    jwtSecret: string;
  };
  http: HttpConfig;
  database: DatabaseConfig;
  messaging: MessagingConfig;
  log: { level: LogLevel };
  rateLimits: RateLimitConfig;
}

export interface RateLimitConfig {
  /** Where counters live: Redis shares them across replicas and services; memory is per process. */
  store: 'redis' | 'memory';
  redisUrl: string;
  /** Prefix of the counters' Redis keys, so that deployments can share one Redis. */
  keyPrefix: string;
  /** A Redis command slower than this fails, and the request passes unlimited (fail-open, logged). */
  redisTimeoutMs: number;
  /** Windows of every rate-limited route without an entry in `routes`. */
  defaultWindows: RateLimitWindow[];
  /** Per route, keyed `METHOD /framework/path/:param` (from `METHOD /spec/path/{param}` in the setting). */
  routes: Record<string, RateLimitWindow[]>;
}

/** `minute=60,second=5` to windows; undefined if malformed (the limiters' own rules decide). */
export function parseRateLimitWindows(text: string): RateLimitWindow[] | undefined {
  const windows = text.split(',').map((part) => {
    const [policy, limit] = part.trim().split('=');
    return { policy: policy as RateLimitPolicy, limit: Number(limit) };
  });
  try {
    assertValidRateLimitWindows(windows);
    return windows;
  } catch {
    return undefined;
  }
}

function readRateLimits(env: EnvReader, defaultStore: RateLimitConfig['store']): RateLimitConfig {
  const defaults = env.string('RATE_LIMIT_DEFAULT', 'minute=60');
  const defaultWindows = parseRateLimitWindows(defaults);
  if (!defaultWindows)
    env.problem(`RATE_LIMIT_DEFAULT must look like "minute=60,second=5", got "${defaults}"`);
  const routes: Record<string, RateLimitWindow[]> = {};
  const overrides = env.optionalString('RATE_LIMIT_ROUTES');
  if (overrides) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(overrides);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      env.problem(
        'RATE_LIMIT_ROUTES must be a JSON object like {"GET /v2/api/companies": "second=5,minute=100"}',
      );
    } else {
      for (const [route, text] of Object.entries(parsed)) {
        const windows = typeof text === 'string' ? parseRateLimitWindows(text) : undefined;
        const [method, path] = route.trim().split(/\s+/);
        if (!windows || !method || !path)
          env.problem(`RATE_LIMIT_ROUTES: bad entry "${route}": "${String(text)}"`);
        else routes[`${method.toUpperCase()} ${toFrameworkPath(path)}`] = windows;
      }
    }
  }
  return {
    store: env.oneOf('RATE_LIMIT_STORE', ['redis', 'memory'] as const, defaultStore),
    redisUrl: env.url('REDIS_URL', ['redis', 'rediss'], 'redis://127.0.0.1:6379'),
    keyPrefix: env.string('RATE_LIMIT_KEY_PREFIX', 'fleet:rl:'),
    redisTimeoutMs: env.int('RATE_LIMIT_REDIS_TIMEOUT_MS', 500, { min: 10, max: 60_000 }),
    defaultWindows: defaultWindows ?? [{ policy: 'minute', limit: 60 }],
    routes,
  };
}

export interface ServiceConfigDefaults {
  httpPort: number;
  /**
   * Bind address when HTTP_HOST is not set: every interface for a service in a container (the
   * default), the loopback only for the embedded app, which must not open a demo to the network.
   */
  httpHost?: string;
  /** HTTP_TRUSTED_PROXIES when not set: private-network proxies (the edge) unless told otherwise. */
  trustedProxies?: string[];
  /** The embedded app supplies its own database; distributed services must be told where it is. */
  databaseUrl?: string;
  /** The embedded app generates one per data directory; distributed services must share one. */
  jwtSecret?: string;
  transport?: MessagingConfig['transport'];
}

/** HS256 keys shorter than the hash output weaken the signature. */
export const MIN_JWT_SECRET_LENGTH = 32;

/**
 * Secrets that are placeholders, not secrets: copied from an example file they are known to anyone
 * who read it, whatever their length (`docker/.env.example` ships one). Also one character repeated.
 */
const PLACEHOLDER_SECRET =
  /change[-_ ]?me|replace[-_ ]?me|placeholder|example|your[-_ ]?(jwt[-_ ]?)?secret|^(.)\2*$/i;

/** True for a value that only looks like a secret (see PLACEHOLDER_SECRET). */
export function isPlaceholderSecret(value: string): boolean {
  return PLACEHOLDER_SECRET.test(value);
}

function readTrustedProxies(env: EnvReader, fallback: string[]): string[] {
  const entries = env.list('HTTP_TRUSTED_PROXIES', fallback);
  if (entries.length === 1 && entries[0] === 'none') return [];
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (bad.length > 0) {
    env.problem(
      `HTTP_TRUSTED_PROXIES: ${bad.join(', ')} is not an address, a CIDR block, loopback, linklocal or uniquelocal`,
    );
  }
  return entries;
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
  const jwtSecret = env.secret('AUTH_JWT_SECRET', MIN_JWT_SECRET_LENGTH, defaults.jwtSecret);
  if (jwtSecret !== undefined && isPlaceholderSecret(jwtSecret)) {
    env.problem('AUTH_JWT_SECRET is a placeholder (e.g. from docker/.env.example): set a random one');
  }
  return {
    service,
    auth: { jwtSecret },
    http: {
      host: env.string('HTTP_HOST', defaults.httpHost ?? '0.0.0.0'),
      port: env.port('HTTP_PORT', defaults.httpPort),
      trustedProxies: readTrustedProxies(env, defaults.trustedProxies ?? PRIVATE_NETWORK_PROXIES),
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
              replicationFactor: env.int('KAFKA_REPLICATION_FACTOR', 1, { min: 1, max: 7 }),
              namespace: env.optionalString('KAFKA_NAMESPACE'),
              sessionTimeoutMs: env.int('KAFKA_SESSION_TIMEOUT_MS', 10_000, { min: 6_000, max: 300_000 }),
              client: env.oneOf('KAFKA_CLIENT', kafkaClientNames, 'kafkajs'),
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
    // One process needs no shared store; replicas and services must share their counters.
    rateLimits: readRateLimits(env, transport === 'in-process' ? 'memory' : 'redis'),
  };
}
