import { resolve } from 'node:path';
import { EnvReader, readServiceConfig, ServiceConfig } from '@fleet/platform';

export interface FleetConfig extends ServiceConfig {
  /** Absent when DATABASE_URL points at an existing PostgreSQL. */
  embeddedDatabase?: { dataDir: string; port: number };
}

const EMBEDDED_URL_PLACEHOLDER = 'postgres://embedded.invalid/fleet';

/** The embedded default: in-process messaging, and its own PostgreSQL unless DATABASE_URL is given. */
export function readFleetConfig(env: EnvReader): FleetConfig {
  const externalDatabase = env.optionalString('DATABASE_URL');
  const config = readServiceConfig('fleet', env, {
    httpPort: 3000,
    transport: 'in-process',
    databaseUrl: externalDatabase ?? EMBEDDED_URL_PLACEHOLDER,
  });
  return {
    ...config,
    embeddedDatabase: externalDatabase
      ? undefined
      : {
          dataDir: resolve(env.string('FLEET_DATA_DIR', '.data')),
          port: env.port('EMBEDDED_PG_PORT', 54329),
        },
  };
}
