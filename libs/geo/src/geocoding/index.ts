export type { GeocodedPlace, GeocodingErrorHandler, ReverseGeocoder, StructuredAddress } from './geocoder';
export { formatCoordinate, GeocodingError, isValidCoordinate } from './geocoder';
export { countryName } from './country-names';
export type { OfflineGeocoderOptions } from './offline/offline-geocoder';
export { compassPoint, OfflineGeocoder, vicinityRadiusM } from './offline/offline-geocoder';
export type { PlaceTable } from './offline/place-table';
// The offline index's parts, measured on their own by bench/geocoder.
export { loadPlaceTable } from './offline/place-table';
export { PlaceIndex } from './offline/place-index';
export type { NominatimGeocoderOptions } from './nominatim-geocoder';
export { NominatimGeocoder } from './nominatim-geocoder';
export type { CachedGeocoderOptions } from './cached-geocoder';
export { CachedGeocoder } from './cached-geocoder';
export type { GeocoderConfig, GeocoderProvider } from './create-geocoder';
export { createGeocoder, DisabledGeocoder } from './create-geocoder';
export type { AddressErrorHandler } from './address-resolver';
export { AddressResolver } from './address-resolver';
export type { GeocoderEnv, GeocoderSettings } from './read-geocoder-config';
export { readGeocoderConfig } from './read-geocoder-config';
