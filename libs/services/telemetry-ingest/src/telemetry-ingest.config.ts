import { defaultDevicePort } from '@fleet/contracts';
import { EnvReader } from '@fleet/platform';

/** Settings of telemetry-ingest beyond the platform's (README, section Configuration). */
export interface TelemetryIngestConfig {
  /** The tracker-facing OsmAnd listener (0 = any free port, for tests). */
  device: { host: string; port: number };
  /** Fixes further than this in the future are refused (a tracker with a wrong clock). */
  maxFutureSkewSeconds: number;
  /** How long an IMEI lookup is remembered (a new or removed vehicle takes effect within this time). */
  deviceCacheSeconds: number;
}

export const TELEMETRY_INGEST_CONFIG = Symbol('TELEMETRY_INGEST_CONFIG');

export function readTelemetryIngestConfig(env: EnvReader): TelemetryIngestConfig {
  return {
    device: {
      host: env.string('INGEST_DEVICE_HOST', '0.0.0.0'),
      port: env.port('INGEST_DEVICE_PORT', defaultDevicePort),
    },
    maxFutureSkewSeconds: env.int('INGEST_MAX_FUTURE_SECONDS', 86_400, { min: 0 }),
    deviceCacheSeconds: env.int('INGEST_DEVICE_CACHE_SECONDS', 5, { min: 0, max: 3600 }),
  };
}
