import { CachedGeocoder } from './cached-geocoder';
import { GeocodedPlace, GeocodingErrorHandler, ReverseGeocoder } from './geocoder';
import { NominatimGeocoder } from './nominatim-geocoder';
import { OfflineGeocoder } from './offline/offline-geocoder';

export type GeocoderProvider = 'offline' | 'nominatim' | 'none';

/** What the services read from GEOCODER_PROVIDER, NOMINATIM_URL, GEOCODER_USER_AGENT and GEOCODER_CACHE_SIZE. */
export interface GeocoderConfig {
  provider: GeocoderProvider;
  /** Required for `nominatim`. */
  nominatimUrl?: string;
  /** Required for `nominatim` (its usage policy): name the application and a contact. */
  userAgent?: string;
  /** Answers cached in front of Nominatim; 0 turns the cache off. Default 10,000. */
  cacheSize?: number;
  /** Told about failed lookups, for the service's log. */
  onError?: GeocodingErrorHandler;
}

/** The `none` provider: geocoding switched off, every lookup answers null at once. */
export class DisabledGeocoder implements ReverseGeocoder {
  reverse(): Promise<GeocodedPlace | null> {
    return Promise.resolve(null);
  }
}

/**
 * The geocoder a configuration asks for. Nominatim is wrapped in a CachedGeocoder; the offline
 * geocoder is not, since its lookups take microseconds, about what a cache lookup costs. Throws
 * when the configuration is incomplete, so that a service fails at start rather than at its
 * first lookup.
 */
export function createGeocoder(config: GeocoderConfig): ReverseGeocoder {
  switch (config.provider) {
    case 'none':
      return new DisabledGeocoder();
    case 'offline':
      return new OfflineGeocoder({ onError: config.onError });
    case 'nominatim': {
      const problems = [
        ...(config.nominatimUrl ? [] : ['a Nominatim URL (NOMINATIM_URL)']),
        ...(config.userAgent ? [] : ['a User-Agent (GEOCODER_USER_AGENT)']),
      ];
      if (problems.length > 0) {
        throw new Error(`The nominatim geocoder needs ${problems.join(' and ')}`);
      }
      const nominatim = new NominatimGeocoder({
        baseUrl: config.nominatimUrl as string,
        userAgent: config.userAgent as string,
        onError: config.onError,
      });
      const cacheSize = config.cacheSize ?? 10_000;
      return cacheSize > 0 ? new CachedGeocoder(nominatim, { maxEntries: cacheSize }) : nominatim;
    }
  }
}
