import { AlertEngineException } from '../alert-engine.exception';
import { changedGeofence, geofenceDefinitionOf, GeofenceInput } from './geofence-rules';

const ring = [
  [13.4, 52.5],
  [13.41, 52.5],
  [13.41, 52.51],
  [13.4, 52.5],
];

function refusal(input: Record<string, unknown>): string | undefined {
  try {
    geofenceDefinitionOf(input as unknown as GeofenceInput);
    return undefined;
  } catch (error) {
    if (!(error instanceof AlertEngineException)) throw error;
    return error.description;
  }
}

describe('geofence rules', () => {
  it('stores a circle and a polygon in their plain forms', () => {
    expect(
      geofenceDefinitionOf({ name: ' Depot ', circle: { lat: 1, lng: 2, radiusM: 3, extra: 1 } as never }),
    ).toEqual({
      name: 'Depot',
      shape: { kind: 'circle', lat: 1, lng: 2, radiusM: 3 },
    });
    const withAltitudes = ring.map(([lng, lat]) => [lng, lat, 34]);
    expect(
      geofenceDefinitionOf({
        name: 'Yard',
        polygon: { type: 'Polygon', coordinates: [withAltitudes], bbox: [0, 0, 1, 1] },
      }),
    ).toEqual({
      name: 'Yard',
      shape: { kind: 'polygon', polygon: { type: 'Polygon', coordinates: [ring] } },
    });
  });

  it.each([
    [{ name: 'x' }, /^circle: a circle or a polygon is required/],
    [{ name: 'x', circle: null, polygon: null }, /^circle: a circle or a polygon is required/],
    [
      {
        name: 'x',
        circle: { lat: 0, lng: 0, radiusM: 1 },
        polygon: { type: 'Polygon', coordinates: [ring] },
      },
      /^polygon: give a circle or a polygon, not both/,
    ],
    [{ name: '', circle: { lat: 0, lng: 0, radiusM: 0 } }, /^name: .*; circle\.radiusM: /],
    [{ name: 'x', circle: { lat: 0, lng: 181, radiusM: 1 } }, /^circle\.lng: /],
    [
      { name: 'x', polygon: { type: 'Polygon', coordinates: [ring.map(([lng, lat]) => [lng, lat, null])] } },
      /^polygon\.coordinates\[0\]\[0\]: a third value/,
    ],
    [{ name: 'x', polygon: { type: 'Polygon', coordinates: [] } }, /^polygon\.coordinates: /],
  ])('%j: %p', (input, expected) => {
    expect(refusal(input as Record<string, unknown>)).toMatch(expected);
  });

  it('applies a change: a left-out name or shape keeps its value, a new shape replaces the old whatever its kind', () => {
    const current = geofenceDefinitionOf({ name: 'Gate', circle: { lat: 1, lng: 2, radiusM: 3 } });
    expect(changedGeofence(current, { name: 'North gate' })).toEqual({ ...current, name: 'North gate' });
    expect(changedGeofence(current, { polygon: { type: 'Polygon', coordinates: [ring] } })).toEqual({
      name: 'Gate',
      shape: { kind: 'polygon', polygon: { type: 'Polygon', coordinates: [ring] } },
    });
    expect(() => changedGeofence(current, { name: ' ' })).toThrow(/^name: /);
  });
});
