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

  async addressOf(lat: number, lng: number): Promise<string | null> {
    try {
      return (await this.geocoder.reverse(lat, lng))?.address ?? null;
    } catch (error) {
      this.logger.warn({ msg: 'reverse geocoding failed', err: error });
      return null;
    }
  }
}
