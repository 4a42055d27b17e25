/**
 * An address in parts, for machine consumers (webhook payloads send it as `Street`, `Suburb`, `State`,
 * `Postcode`, `Country`). A part the geocoder does not know is null.
 */
export interface StructuredAddress {
  /** House number and road, e.g. "12 George Street". */
  street: string | null;
  /** The suburb, neighbourhood or city district; the offline geocoder gives the locality. */
  suburb: string | null;
  state: string | null;
  postcode: string | null;
  /** The country's name (English offline; the requested language from Nominatim). */
  country: string | null;
}

/** One reverse-geocoding answer: a readable address and, when known, the place and country behind it. */
export interface GeocodedPlace {
  /** Ready to show, e.g. "Berlin, Germany" or "12 km NE of Potsdam, Germany". */
  address: string;
  /** The locality the address refers to (city, town, village). */
  place?: string;
  /** The country's English name. */
  country?: string;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode?: string;
  /** Metres from the looked-up coordinate to the place named (or to the matched map feature). */
  distanceM?: number;
  /** The address in parts; absent when the answer is only the coordinate. */
  structured?: StructuredAddress;
}

/**
 * Turns a coordinate into an address. Implementations resolve null when they have no answer (a
 * provider failed, timed out or knows nothing there) and do not reject, so a caller can always fall
 * back to showing the coordinate.
 */
export interface ReverseGeocoder {
  reverse(lat: number, lng: number): Promise<GeocodedPlace | null>;
  /**
   * The answer `reverse` would give, if it is at hand without waiting (a cache hit); undefined when
   * only `reverse` can tell. Lets a page of positions skip a promise per row, most rows being hits.
   */
  peek?(lat: number, lng: number): GeocodedPlace | null | undefined;
}

/** A failed lookup, as reported to an `onError` callback: the reverse call itself resolved null. */
export class GeocodingError extends Error {
  constructor(
    message: string,
    /** What went wrong, so that a service can log or count failures by kind. */
    readonly kind: 'http' | 'timeout' | 'network' | 'invalid-response' | 'dataset',
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'GeocodingError';
  }
}

/** Called with every failed lookup; the services log it. */
export type GeocodingErrorHandler = (error: GeocodingError, at: { lat: number; lng: number }) => void;

/** Calls an error handler, if any; a handler that throws must not turn a null answer into a rejection. */
export function reportError(
  onError: GeocodingErrorHandler | undefined,
  error: GeocodingError,
  at: { lat: number; lng: number },
): void {
  try {
    onError?.(error, at);
  } catch {
    // Nothing better to do: the handler is how errors get out.
  }
}

/** True for a finite WGS84 coordinate; geocoders answer null for anything else instead of guessing. */
export function isValidCoordinate(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
}

/** The coordinate itself as an address, at 5 decimals (about 1 m). */
export function formatCoordinate(lat: number, lng: number): string {
  // Rounded first, so that a value just below zero prints as 0.00000 rather than -0.00000.
  const fixed = (value: number): string => (Math.round(value * 1e5) / 1e5 + 0).toFixed(5);
  return `${fixed(lat)}, ${fixed(lng)}`;
}
