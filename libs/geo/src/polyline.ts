import { decode, encode } from '@googlemaps/polyline-codec';
import { LatLng } from './distance';

/**
 * Google's encoded polyline format at precision 5, the precision static map services expect; the
 * codec is Google's own package. These adapters keep the `{ lat, lng }` shape the rest of the
 * platform uses.
 */
const PRECISION = 5;

/** Encodes points (latitude first) as a polyline string, e.g. for a trip's static map URL. */
export function encodePolyline(points: readonly LatLng[]): string {
  for (const point of points) {
    // The codec turns NaN into 0 without complaint: the map would draw a line to 0°, 0°.
    if (!Number.isFinite(point.lat) || !Number.isFinite(point.lng)) {
      throw new RangeError(`polyline coordinate is not a finite number: ${point.lat}, ${point.lng}`);
    }
  }
  return encode([...points], PRECISION);
}

/**
 * Decodes a precision-5 polyline string (ours or any Google-compatible encoder's). Trusts its input:
 * the codec does not reject a malformed string, it decodes it into wrong points.
 */
export function decodePolyline(encoded: string): LatLng[] {
  return decode(encoded, PRECISION).map(([lat, lng]) => ({ lat, lng }));
}
