import { createGeocoder, ReverseGeocoder } from '@fleet/geo';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';

/**
 * Addresses of positions, from the configured reverse geocoder (offline by default; Nominatim, cached,
 * in production; docs/geocoding.md). A geocoder failure gives no address, never an error.
 */
@Injectable()
export class AddressResolver {
  private readonly logger = new Logger(AddressResolver.name);
  private readonly geocoder: ReverseGeocoder;

  constructor(@Inject(QUERY_API_CONFIG) config: QueryApiConfig) {
    this.geocoder = createGeocoder({
      ...config.geocoder,
      onError: (error, at) => this.logger.warn({ msg: 'reverse geocoding failed', err: error, at }),
    });
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
      if (known !== undefined) addresses[index] = known;
      else misses.push(this.addressOf(lat, lng).then((address) => void (addresses[index] = address)));
    });
    if (misses.length > 0) await Promise.all(misses);
    return addresses;
  }

  async addressOf(lat: number, lng: number): Promise<string | null> {
    try {
      return (await this.geocoder.reverse(lat, lng))?.address ?? null;
    } catch (error) {
      this.logger.warn({ msg: 'reverse geocoding failed', err: error });
      return null;
    }
  }

  /** The address if the geocoder has it at hand; undefined when it has to be asked. */
  private peek(lat: number, lng: number): string | null | undefined {
    try {
      const place = this.geocoder.peek?.(lat, lng);
      return place === undefined ? undefined : (place?.address ?? null);
    } catch {
      return undefined;
    }
  }
}
