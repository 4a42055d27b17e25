import { circleProblems, GeofenceShape, PolygonShape, polygonProblems } from '@fleet/geo';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { nameProblem } from '../common/names';

/** A GeoJSON Polygon (outer ring first, `[lng, lat]` positions, each ring closed). */
export type GeoJsonPolygon = PolygonShape['polygon'];

/** A circle as a client gives it. */
export interface CircleInput {
  lat: number;
  lng: number;
  radiusM: number;
}

/** A geofence as a client gives it: a name and exactly one of `circle` and `polygon`. */
export interface GeofenceInput {
  name: string;
  circle?: CircleInput | null;
  polygon?: GeoJsonPolygon | null;
}

/** A geofence as stored. */
export interface GeofenceDefinition {
  name: string;
  shape: GeofenceShape;
}

const invalid = (problems: string[]) =>
  new AlertEngineException(AlertEngineExceptionCode.InvalidDefinition, problems.join('; '));

/** GeoJSON allows a third value (an altitude) in a position; it is dropped here, but must be a number. */
function altitudeProblems(polygon: GeoJsonPolygon): string[] {
  return polygon.coordinates.flatMap((ring, ringIndex) =>
    ring.flatMap((position, index) =>
      position.length === 3 && !(typeof position[2] === 'number' && Number.isFinite(position[2]))
        ? [`polygon.coordinates[${ringIndex}][${index}]: a third value (altitude) must be a number`]
        : [],
    ),
  );
}

/**
 * The shape a body gives, checked with `@fleet/geo`'s rules, in its stored form: `{kind: 'circle',
 * lat, lng, radiusM}` or `{kind: 'polygon', polygon}` with `[lng, lat]` positions (altitudes and
 * foreign members dropped). No shape and no problem when the body gives none and none is `required`.
 */
function checkedShape(
  given: Pick<GeofenceInput, 'circle' | 'polygon'>,
  required: boolean,
): { problems: string[]; shape?: GeofenceShape } {
  const circle = given.circle ?? undefined;
  const polygon = given.polygon ?? undefined;
  if (circle !== undefined && polygon !== undefined) {
    return { problems: ['polygon: give a circle or a polygon, not both'] };
  }
  if (circle !== undefined) {
    const problems = circleProblems(circle, 'circle');
    if (problems.length) return { problems };
    return { problems, shape: { kind: 'circle', lat: circle.lat, lng: circle.lng, radiusM: circle.radiusM } };
  }
  if (polygon !== undefined) {
    const problems = polygonProblems(polygon, 'polygon');
    if (problems.length) return { problems };
    const altitudes = altitudeProblems(polygon);
    if (altitudes.length) return { problems: altitudes };
    const coordinates = polygon.coordinates.map((ring) => ring.map(([lng, lat]) => [lng, lat]));
    return { problems, shape: { kind: 'polygon', polygon: { type: 'Polygon', coordinates } } };
  }
  return { problems: required ? ['circle: a circle or a polygon is required'] : [] };
}

/** Checks a new geofence and returns it as stored; a 422 naming every field that breaks a rule otherwise. */
export function geofenceDefinitionOf(input: GeofenceInput): GeofenceDefinition {
  const name = nameProblem('name', input.name);
  const { problems, shape } = checkedShape(input, true);
  if (name) problems.unshift(name);
  if (problems.length || !shape) throw invalid(problems);
  return { name: input.name.trim(), shape };
}

/** A PUT's change applied to the stored geofence: a field left out (or null) keeps its value. */
export function changedGeofence(
  current: GeofenceDefinition,
  change: Partial<GeofenceInput>,
): GeofenceDefinition {
  const name = change.name ?? current.name;
  const nameIssue = nameProblem('name', name);
  const { problems, shape } = checkedShape(change, false);
  if (nameIssue) problems.unshift(nameIssue);
  if (problems.length) throw invalid(problems);
  return { name: name.trim(), shape: shape ?? current.shape };
}
