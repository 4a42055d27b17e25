import { haversineMetres } from '../distance';
import {
  GeocodedPlace,
  GeocodingError,
  GeocodingErrorHandler,
  isValidCoordinate,
  reportError,
  ReverseGeocoder,
  StructuredAddress,
} from './geocoder';

export interface NominatimGeocoderOptions {
  /** The server's root, e.g. `https://nominatim.openstreetmap.org` or a self-hosted instance. */
  baseUrl: string;
  /** Sent as User-Agent: Nominatim's usage policy asks every application to identify itself. */
  userAgent: string;
  /** A lookup slower than this answers null. Default 2000 ms. */
  timeoutMs?: number;
  /** Language of the names in the answer (Accept-Language). Default `en`. */
  language?: string;
  /** Told about every failed lookup (HTTP error, timeout, network, unreadable answer). */
  onError?: GeocodingErrorHandler;
}

/** The parts of a `format=jsonv2` reverse answer that are used here. */
interface NominatimReverseAnswer {
  error?: unknown;
  display_name?: unknown;
  lat?: unknown;
  lon?: unknown;
  address?: Record<string, unknown>;
}

/** Address keys that can name the locality; the first one present is used. */
const LOCALITY_KEYS = ['city', 'town', 'village', 'hamlet', 'municipality'] as const;

/**
 * Reverse geocoding through a Nominatim server (OpenStreetMap data): street-level addresses, for
 * production. Every failure resolves null and goes to `onError`; nothing is thrown at the caller.
 * The public instance allows about one request per second, so put a CachedGeocoder in front.
 */
export class NominatimGeocoder implements ReverseGeocoder {
  private readonly reverseUrl: URL;
  private readonly timeoutMs: number;
  private readonly language: string;

  constructor(private readonly options: NominatimGeocoderOptions) {
    // A trailing slash makes `reverse` resolve below a base with a path (`https://host/nominatim`).
    this.reverseUrl = new URL(
      'reverse',
      options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`,
    );
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.language = options.language ?? 'en';
  }

  async reverse(lat: number, lng: number): Promise<GeocodedPlace | null> {
    if (!isValidCoordinate(lat, lng)) return null;
    try {
      const answer = await this.request(lat, lng);
      // Nominatim's way of saying it knows no address there (e.g. at sea): an answer, not a failure.
      if (answer.error !== undefined) return null;
      return toPlace(answer, lat, lng);
    } catch (error) {
      reportError(this.options.onError, asGeocodingError(error), { lat, lng });
      return null;
    }
  }

  private async request(lat: number, lng: number): Promise<NominatimReverseAnswer> {
    const url = new URL(this.reverseUrl);
    url.search = new URLSearchParams({
      format: 'jsonv2',
      lat: String(lat),
      lon: String(lng),
      zoom: '18',
      addressdetails: '1',
    }).toString();
    const response = await fetch(url, {
      headers: {
        'User-Agent': this.options.userAgent,
        'Accept-Language': this.language,
        Accept: 'application/json',
      },
      // Covers reading the body too, not just waiting for the headers.
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new GeocodingError(`Nominatim answered HTTP ${response.status}`, 'http');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new GeocodingError(
        'Nominatim answered with something that is not JSON',
        'invalid-response',
        error,
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new GeocodingError('Nominatim answered with JSON that is not an object', 'invalid-response');
    }
    return body as NominatimReverseAnswer;
  }
}

function toPlace(answer: NominatimReverseAnswer, lat: number, lng: number): GeocodedPlace {
  if (typeof answer.display_name !== 'string' || answer.display_name === '') {
    throw new GeocodingError('Nominatim answered without a display_name', 'invalid-response');
  }
  const address = answer.address ?? {};
  const text = (key: string): string | undefined => {
    const value = address[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const place: GeocodedPlace = { address: answer.display_name };
  const locality = LOCALITY_KEYS.map(text).find((name) => name !== undefined);
  if (locality !== undefined) place.place = locality;
  const country = text('country');
  if (country !== undefined) place.country = country;
  const countryCode = text('country_code');
  if (countryCode !== undefined) place.countryCode = countryCode.toUpperCase();
  place.structured = structuredAddress(text);
  // Nominatim gives the matched feature's position as strings.
  const matchedLat = Number(answer.lat);
  const matchedLng = Number(answer.lon);
  if (
    typeof answer.lat === 'string' &&
    typeof answer.lon === 'string' &&
    isValidCoordinate(matchedLat, matchedLng)
  ) {
    place.distanceM = Math.round(haversineMetres({ lat, lng }, { lat: matchedLat, lng: matchedLng }));
  }
  return place;
}

/** The parts of Nominatim's `address` details a structured address takes. */
function structuredAddress(text: (key: string) => string | undefined): StructuredAddress {
  const road = text('road');
  const houseNumber = text('house_number');
  return {
    // English order, as the default language asks for: "12 George Street". A number without a road
    // says nothing on its own.
    street: road === undefined ? null : houseNumber === undefined ? road : `${houseNumber} ${road}`,
    suburb: text('suburb') ?? text('neighbourhood') ?? text('city_district') ?? null,
    state: text('state') ?? null,
    postcode: text('postcode') ?? null,
    country: text('country') ?? null,
  };
}

/**
 * The timeout signal's rejection: a DOMException named TimeoutError (AbortError from older fetch
 * versions). Checked by name, since it may come from another realm (e.g. a test sandbox) where
 * `instanceof Error` fails.
 */
function isAbort(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'TimeoutError' || name === 'AbortError';
}

function asGeocodingError(error: unknown): GeocodingError {
  if (error instanceof GeocodingError) return error;
  if (isAbort(error)) return new GeocodingError('Nominatim did not answer in time', 'timeout', error);
  return new GeocodingError('Nominatim could not be reached', 'network', error);
}
