import { defaultDevicePort } from '@fleet/contracts';
import { EnvReader } from '@fleet/platform';
import { SourceNetworks } from './osmand/source-networks';

/** Settings of telemetry-ingest beyond the platform's (README, section Configuration). */
export interface TelemetryIngestConfig {
  /**
   * The tracker-facing OsmAnd listener (0 = any free port, for tests), and the source networks it
   * takes reports from (INGEST_DEVICE_ALLOWED_NETWORKS; empty: any, see docs/osmand.md).
   */
  device: { host: string; port: number; allowedNetworks: SourceNetworks };
  /** Fixes further than this in the future are refused (a tracker with a wrong clock). */
  maxFutureSkewSeconds: number;
  /** Fixes older than the position history kept (POSITIONS_RETENTION_DAYS, as query-api reads it) are refused. */
  retentionDays: number;
  /** How long an IMEI lookup is remembered (a new or removed vehicle takes effect within this time). */
  deviceCacheSeconds: number;
  /**
   * A device command handed out and not acknowledged is handed out again (same id) after this long
   * (COMMAND_RESEND_SECONDS; docs/osmand.md, "Commands (extension)").
   */
  commandResendSeconds: number;
}

export const TELEMETRY_INGEST_CONFIG = Symbol('TELEMETRY_INGEST_CONFIG');

/** `deviceHost`: the tracker port's bind address when INGEST_DEVICE_HOST is not set. */
export function readTelemetryIngestConfig(
  env: EnvReader,
  defaults: { deviceHost?: string } = {},
): TelemetryIngestConfig {
  return {
    device: {
      host: env.string('INGEST_DEVICE_HOST', defaults.deviceHost ?? '0.0.0.0'),
      port: env.port('INGEST_DEVICE_PORT', defaultDevicePort),
      allowedNetworks: readSourceNetworks(env),
    },
    maxFutureSkewSeconds: env.int('INGEST_MAX_FUTURE_SECONDS', 86_400, { min: 0 }),
    retentionDays: env.int('POSITIONS_RETENTION_DAYS', 365, { min: 1 }),
    deviceCacheSeconds: env.int('INGEST_DEVICE_CACHE_SECONDS', 5, { min: 0, max: 3600 }),
    commandResendSeconds: env.int('COMMAND_RESEND_SECONDS', 30, { min: 1, max: 86_400 }),
  };
}

function readSourceNetworks(env: EnvReader): SourceNetworks {
  try {
    return SourceNetworks.parse(env.list('INGEST_DEVICE_ALLOWED_NETWORKS', []));
  } catch (error) {
    env.problem(`INGEST_DEVICE_ALLOWED_NETWORKS: ${(error as Error).message}`);
    return SourceNetworks.parse([]);
  }
}
