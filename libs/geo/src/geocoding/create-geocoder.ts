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
  /** Answers cached in front of the geocoder; 0 turns the cache off. Default 10,000. */
  cacheSize?: number;
  /** Told about failed lookups, for the service's log. */
  onError?: GeocodingErrorHandler;
}

/** The `none` provider: geocoding switched off, every lookup answers null at once. */
export class DisabledGeocoder implements ReverseGeocoder {
  reverse(): Promise<GeocodedPlace | null> {
    return Promise.resolve(null);
  }

  peek(): null {
    return null;
  }
}

/**
 * The geocoder a configuration asks for, wrapped in a CachedGeocoder. Nominatim needs it most; the
 * offline geocoder too, since position pages ask for the same parked vehicles' places again and again,
 * and a cache hit is several times cheaper than a search (docs/performance.md). Throws when the
 * configuration is incomplete, so that a service fails at start rather than at its first lookup.
 */
export function createGeocoder(config: GeocoderConfig): ReverseGeocoder {
  switch (config.provider) {
    case 'none':
      return new DisabledGeocoder();
    case 'offline':
      return cached(new OfflineGeocoder({ onError: config.onError }), config.cacheSize);
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
      return cached(nominatim, config.cacheSize);
    }
  }
}

function cached(geocoder: ReverseGeocoder, cacheSize = 10_000): ReverseGeocoder {
  return cacheSize > 0 ? new CachedGeocoder(geocoder, { maxEntries: cacheSize }) : geocoder;
}
