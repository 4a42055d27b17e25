import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { point, polygon as turfPolygon } from '@turf/helpers';
import kinks from '@turf/kinks';
import { pointToPolygonDistance } from '@turf/point-to-polygon-distance';
import type { Polygon } from 'geojson';
import { haversineMetres, LatLng } from './distance';

/** Most vertices of a geofence polygon (its closing vertex included). */
export const MAX_POLYGON_VERTICES = 1_000;
/** Largest circle radius, metres: a geofence is a place, not a country. */
export const MAX_CIRCLE_RADIUS_M = 500_000;

/** A circle on the ground: centre and radius in metres. */
export interface CircleShape {
  kind: 'circle';
  lat: number;
  lng: number;
  radiusM: number;
}

/** A GeoJSON polygon (outer ring first; positions are `[lng, lat]`, each ring closed). */
export interface PolygonShape {
  kind: 'polygon';
  polygon: Polygon;
}

export type GeofenceShape = CircleShape | PolygonShape;

/** The smallest latitude/longitude box around a shape, for spatial indexes. */
export interface BoundingBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

const isCoordinate = (value: unknown, limit: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= -limit && value <= limit;

/** Problems with a circle given as `{lat, lng, radiusM}`, each naming its field under `path`. */
export function circleProblems(given: unknown, path = 'circle'): string[] {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return [`${path}: must be an object {lat, lng, radiusM}`];
  }
  const { lat, lng, radiusM } = given as Record<string, unknown>;
  const problems: string[] = [];
  if (!isCoordinate(lat, 90)) problems.push(`${path}.lat: must be a latitude between -90 and 90`);
  if (!isCoordinate(lng, 180)) problems.push(`${path}.lng: must be a longitude between -180 and 180`);
  if (typeof radiusM !== 'number' || !Number.isFinite(radiusM) || radiusM <= 0 || radiusM > MAX_CIRCLE_RADIUS_M) {
    problems.push(`${path}.radiusM: must be a number of metres above 0 and at most ${MAX_CIRCLE_RADIUS_M}`);
  }
  return problems;
}

/**
 * Problems with a GeoJSON Polygon: the type, rings of at least four positions, each closed, every
 * position `[lng, lat]` in range, at most {@link MAX_POLYGON_VERTICES} vertices in all, and no ring
 * crossing itself or another (checked with turf's `kinks`).
 */
export function polygonProblems(given: unknown, path = 'polygon'): string[] {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return [`${path}: must be a GeoJSON Polygon object`];
  }
  const { type, coordinates } = given as Record<string, unknown>;
  if (type !== 'Polygon') return [`${path}.type: must be "Polygon"`];
  if (!Array.isArray(coordinates) || coordinates.length === 0) {
    return [`${path}.coordinates: must be an array of linear rings`];
  }
  const problems: string[] = [];
  let vertices = 0;
  coordinates.forEach((ring: unknown, ringIndex) => {
    const ringPath = `${path}.coordinates[${ringIndex}]`;
    if (!Array.isArray(ring) || ring.length < 4) {
      problems.push(`${ringPath}: a ring needs at least 4 positions (3 corners and the closing one)`);
      return;
    }
    vertices += ring.length;
    ring.forEach((position: unknown, index) => {
      if (!Array.isArray(position) || position.length < 2 || position.length > 3) {
        problems.push(`${ringPath}[${index}]: must be a position [lng, lat]`);
      } else if (!isCoordinate(position[0], 180) || !isCoordinate(position[1], 90)) {
        problems.push(`${ringPath}[${index}]: [lng, lat] out of range (lng -180..180, lat -90..90)`);
      }
    });
    const first = ring[0] as unknown[];
    const last = ring[ring.length - 1] as unknown[];
    if (Array.isArray(first) && Array.isArray(last) && (first[0] !== last[0] || first[1] !== last[1])) {
      problems.push(`${ringPath}: the ring is not closed (its last position must equal its first)`);
    }
  });
  if (vertices > MAX_POLYGON_VERTICES) {
    problems.push(`${path}.coordinates: ${vertices} vertices, at most ${MAX_POLYGON_VERTICES} allowed`);
  }
  if (problems.length > 0) return problems;
  const crossings = kinks(turfPolygon(coordinates as number[][][])).features.length;
  if (crossings > 0) problems.push(`${path}.coordinates: the polygon intersects itself (${crossings} crossings)`);
  return problems;
}

/** Whether `at` lies in the shape (on a polygon's edge counts as inside). */
export function shapeContains(shape: GeofenceShape, at: LatLng): boolean {
  if (shape.kind === 'circle') return haversineMetres(shape, at) <= shape.radiusM;
  return booleanPointInPolygon(point([at.lng, at.lat]), shape.polygon);
}

/**
 * How far `at` lies outside the shape, metres (0 or less when inside): what an exit needs to clear
 * its hysteresis margin.
 */
export function metresOutside(shape: GeofenceShape, at: LatLng): number {
  if (shape.kind === 'circle') return haversineMetres(shape, at) - shape.radiusM;
  return pointToPolygonDistance(point([at.lng, at.lat]), shape.polygon, { units: 'meters' });
}

/** The box around a shape; a circle's grows by its radius in degrees at its latitude. */
export function boundingBoxOf(shape: GeofenceShape): BoundingBox {
  if (shape.kind === 'circle') {
    const latDelta = shape.radiusM / 111_320;
    const cos = Math.max(Math.cos((shape.lat * Math.PI) / 180), 1e-6);
    const lngDelta = Math.min(180, shape.radiusM / (111_320 * cos));
    return {
      minLat: Math.max(-90, shape.lat - latDelta),
      maxLat: Math.min(90, shape.lat + latDelta),
      minLng: Math.max(-180, shape.lng - lngDelta),
      maxLng: Math.min(180, shape.lng + lngDelta),
    };
  }
  const box = { minLat: 90, minLng: 180, maxLat: -90, maxLng: -180 };
  for (const [lng, lat] of shape.polygon.coordinates[0]) {
    box.minLat = Math.min(box.minLat, lat);
    box.maxLat = Math.max(box.maxLat, lat);
    box.minLng = Math.min(box.minLng, lng);
    box.maxLng = Math.max(box.maxLng, lng);
  }
  return box;
}
