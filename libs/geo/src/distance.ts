/** Mean Earth radius in metres (IUGG), the usual choice for haversine distances. */
export const EARTH_RADIUS_M = 6_371_008.8;

/** One knot (a nautical mile an hour) in km/h: the unit of OsmAnd's `speed`. */
export const KMH_PER_KNOT = 1.852;

export interface LatLng {
  lat: number;
  lng: number;
}

const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in metres between two coordinates (haversine; under 0.5 % error on Earth). */
export function haversineMetres(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Straight-line distance in the plane of raw degrees, `sqrt(dLat² + dLng²)`: the unit the spec's
 * nearest routes report (`realDistance`). Not a physical distance; longitude degrees shrink towards the poles.
 */
export function planarDegrees(a: LatLng, b: LatLng): number {
  return Math.hypot(b.lat - a.lat, b.lng - a.lng);
}
