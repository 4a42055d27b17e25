import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AuthServiceConfig, readAuthServiceConfig } from '@fleet/auth-service';
import { EnvReader, readServiceConfig, ServiceConfig } from '@fleet/platform';
import { AlertEngineConfig, readAlertEngineConfig } from '@fleet/alert-engine-service';
import { CommandGatewayConfig, readCommandGatewayConfig } from '@fleet/command-gateway-service';
import { QueryApiConfig, readQueryApiConfig } from '@fleet/query-api-service';
import { readTelemetryIngestConfig, TelemetryIngestConfig } from '@fleet/telemetry-ingest-service';
import { readWebhookDispatcherConfig, WebhookDispatcherConfig } from '@fleet/webhook-dispatcher-service';

export interface FleetConfig extends ServiceConfig {
  authService: AuthServiceConfig;
  ingest: TelemetryIngestConfig;
  queryApi: QueryApiConfig;
  commandGateway: CommandGatewayConfig;
  alertEngine: AlertEngineConfig;
  webhookDispatcher: WebhookDispatcherConfig;
  /** Where the embedded app keeps its data, secrets and the demo credentials file. */
  dataDir: string;
  /** Create the demo tenant on the first start (FLEET_DEMO=false turns it off). */
  seedDemoTenant: boolean;
  /**
   * Simulated trackers for the demo tenant's vehicles (FLEET_SIMULATOR=false turns them off): the first
   * start also fills the last `historySeconds` so trips exist at once.
   */
  demoFleet: { enabled: boolean; intervalSeconds: number; historySeconds: number };
  /** Absent when DATABASE_URL points at an existing PostgreSQL. */
  embeddedDatabase?: { dataDir: string; port: number };
}

const EMBEDDED_URL_PLACEHOLDER = 'postgres://embedded.invalid/fleet';

/** The embedded default: in-process messaging, and its own PostgreSQL unless DATABASE_URL is given. */
export function readFleetConfig(env: EnvReader): FleetConfig {
  const externalDatabase = env.optionalString('DATABASE_URL');
  const dataDir = resolve(env.string('FLEET_DATA_DIR', '.data'));
  const config = readServiceConfig('fleet', env, {
    httpPort: 3000,
    // Reachable from this machine only, unless HTTP_HOST opens it (docs/security.md).
    httpHost: '127.0.0.1',
    // Clients reach the embedded app directly: no proxy's X-Forwarded-For is believed unless set.
    trustedProxies: [],
    transport: 'in-process',
    databaseUrl: externalDatabase ?? EMBEDDED_URL_PLACEHOLDER,
    jwtSecret: env.optionalString('AUTH_JWT_SECRET') ? undefined : localSecret(dataDir, 'jwt-secret', 48),
  });
  return {
    ...config,
    authService: readAuthServiceConfig(env),
    // The tracker port follows HTTP_HOST unless INGEST_DEVICE_HOST says otherwise.
    ingest: readTelemetryIngestConfig(env, { deviceHost: config.http.host }),
    queryApi: readQueryApiConfig(env),
    commandGateway: readCommandGatewayConfig(env),
    alertEngine: readAlertEngineConfig(env),
    webhookDispatcher: readWebhookDispatcherConfig(env, {
      secretKey: env.optionalString('WEBHOOK_SECRET_KEY')
        ? undefined
        : localSecret(dataDir, 'webhook-secret-key', 32),
    }),
    dataDir,
    seedDemoTenant: env.bool('FLEET_DEMO', true),
    demoFleet: {
      enabled: env.bool('FLEET_SIMULATOR', true),
      intervalSeconds: env.int('FLEET_SIMULATOR_INTERVAL_SECONDS', 5, { min: 1 }),
      historySeconds: env.int('FLEET_SIMULATOR_HISTORY_SECONDS', 7200, { min: 0 }),
    },
    embeddedDatabase: externalDatabase
      ? undefined
      : {
          dataDir,
          port: env.port('EMBEDDED_PG_PORT', 54329),
        },
  };
}

/**
 * The embedded app signs tokens and encrypts webhook secrets with keys made for its data directory
 * (readable by their owner only), so tokens and webhooks survive a restart and no secret is ever
 * committed. `bytes` random bytes, base64url.
 */
function localSecret(dataDir: string, name: string, bytes: number): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(bytes).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
