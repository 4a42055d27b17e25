import { createGeocoder, GeocoderConfig } from './create-geocoder';
import { GeocodedPlace, ReverseGeocoder, StructuredAddress } from './geocoder';

/**
 * Told about every lookup that gave no address because something failed: the geocoder's own
 * failures (a GeocodingError: HTTP, timeout, …) and anything a misbehaving geocoder threw.
 */
export type AddressErrorHandler = (error: unknown, at: { lat: number; lng: number }) => void;

/** What a place without address parts (e.g. a bare coordinate far from everything) gives. */
const NO_PARTS: StructuredAddress = Object.freeze({
  street: null,
  suburb: null,
  state: null,
  postcode: null,
  country: null,
});

/**
 * Addresses of positions from the configured reverse geocoder (docs/geocoding.md), for any service:
 * as text for records, in parts for webhook payloads. A failed lookup gives null, never an error.
 */
export class AddressResolver {
  private readonly geocoder: ReverseGeocoder;

  /**
   * From a configuration (the geocoder is built and cached as createGeocoder does), or around a
   * geocoder built elsewhere.
   */
  constructor(
    source: GeocoderConfig | ReverseGeocoder,
    private readonly onError?: AddressErrorHandler,
  ) {
    this.geocoder =
      'reverse' in source ? source : createGeocoder({ ...source, onError: source.onError ?? onError });
  }

  /**
   * Addresses of many points, in their order. Cached answers are taken at once; only the others
   * wait for the geocoder (a page of 50 positions made 100 promises before, most for cache hits).
   */
  async addressesOf(points: readonly { lat: number; lng: number }[]): Promise<(string | null)[]> {
    const addresses = new Array<string | null>(points.length);
    const misses: Promise<void>[] = [];
    points.forEach(({ lat, lng }, index) => {
      const known = this.peek(lat, lng);
      if (known !== undefined) addresses[index] = known?.address ?? null;
      else
        misses.push(this.lookUp(lat, lng).then((place) => void (addresses[index] = place?.address ?? null)));
    });
    if (misses.length > 0) await Promise.all(misses);
    return addresses;
  }

  async addressOf(lat: number, lng: number): Promise<string | null> {
    return (await this.placeOf(lat, lng))?.address ?? null;
  }

  /** The address in parts; null when there is no answer (geocoding off, or the lookup failed). */
  async structuredAddressOf(lat: number, lng: number): Promise<StructuredAddress | null> {
    const place = await this.placeOf(lat, lng);
    return place === null ? null : (place.structured ?? NO_PARTS);
  }

  /**
   * The address as text and in parts from one lookup (what an alert record stores): both null when
   * there is no answer; parts all null for an answer without them.
   */
  async addressWithPartsOf(
    lat: number,
    lng: number,
  ): Promise<{ address: string | null; parts: StructuredAddress | null }> {
    const place = await this.placeOf(lat, lng);
    return place === null
      ? { address: null, parts: null }
      : { address: place.address, parts: place.structured ?? NO_PARTS };
  }

  private placeOf(lat: number, lng: number): Promise<GeocodedPlace | null> {
    const known = this.peek(lat, lng);
    return known !== undefined ? Promise.resolve(known) : this.lookUp(lat, lng);
  }

  private async lookUp(lat: number, lng: number): Promise<GeocodedPlace | null> {
    try {
      return await this.geocoder.reverse(lat, lng);
    } catch (error) {
      // The contract says reverse never rejects; one that does must still not fail the caller's request.
      this.report(error, lat, lng);
      return null;
    }
  }

  /** The answer if the geocoder has it at hand; undefined when it has to be asked. */
  private peek(lat: number, lng: number): GeocodedPlace | null | undefined {
    try {
      return this.geocoder.peek?.(lat, lng);
    } catch (error) {
      this.report(error, lat, lng);
      return undefined;
    }
  }

  private report(error: unknown, lat: number, lng: number): void {
    try {
      this.onError?.(error, { lat, lng });
    } catch {
      // The handler is how errors get out; one that throws has nowhere left to go.
    }
  }
}
