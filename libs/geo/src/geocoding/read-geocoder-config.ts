import { GeocoderConfig, GeocoderProvider } from './create-geocoder';

/**
 * The readers of @fleet/platform's EnvReader that the geocoder settings need, declared here so that
 * this library stays free of the platform (and of NestJS): an EnvReader fits as it is.
 */
export interface GeocoderEnv {
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback?: T): T;
  optionalString(name: string): string | undefined;
  string(name: string, fallback?: string): string;
  int(name: string, fallback?: number, range?: { min?: number; max?: number }): number;
  /** Records a problem; the service reports all of them at start (EnvReader.assertValid). */
  problem(description: string): void;
}

/** GeocoderConfig as read from the environment: every setting has a value. */
export type GeocoderSettings = GeocoderConfig & { userAgent: string; cacheSize: number };

const PROVIDERS: readonly GeocoderProvider[] = ['offline', 'nominatim', 'none'];

/**
 * GEOCODER_PROVIDER (offline, nominatim or none; default offline), NOMINATIM_URL (required for
 * nominatim), GEOCODER_USER_AGENT (default fleet-telemetry/0.1) and GEOCODER_CACHE_SIZE (an integer
 * ≥ 0, default 10,000). Bad settings are recorded on `env`, not thrown, so that a service names every
 * bad setting at once.
 */
export function readGeocoderConfig(env: GeocoderEnv): GeocoderSettings {
  const provider = env.oneOf('GEOCODER_PROVIDER', PROVIDERS, 'offline');
  const nominatimUrl = env.optionalString('NOMINATIM_URL');
  if (provider === 'nominatim' && !nominatimUrl) {
    env.problem('NOMINATIM_URL is required when GEOCODER_PROVIDER=nominatim');
  }
  return {
    provider,
    nominatimUrl,
    userAgent: env.string('GEOCODER_USER_AGENT', 'fleet-telemetry/0.1'),
    cacheSize: env.int('GEOCODER_CACHE_SIZE', 10_000, { min: 0 }),
  };
}
