import type { AlertSettings, PositionReadingsV1 } from '@fleet/contracts';
import { GeofenceIndex, IndexedGeofence } from '@fleet/geo';
import { emptyMemory, evaluateFix, VehicleMemory } from '../evaluation';
import { CoveringConfiguration, Firing, GeofenceLookup } from '../rule-types';

/**
 * Runs fixes of one vehicle through `evaluateFix` the way the consumer does, the memory stored as
 * JSON between fixes, so the rule specs state their cases as readings in and alerts out.
 */

/** A Monday morning in London, sun up (daylight rules stay quiet unless a case moves the clock). */
export const T0 = Date.parse('2024-06-03T10:00:00.000Z');
export const LONDON = { lat: 51.5074, lng: -0.1278 };

/** One fix: seconds after {@link T0} (or an absolute `fixTime`), a place, and the readings it reports. */
export interface Step extends PositionReadingsV1 {
  at?: number;
  fixTime?: number;
  lat?: number;
  lng?: number;
}

export function configuration(
  id: number,
  alertTypeId: number,
  settings: AlertSettings = {},
): CoveringConfiguration {
  return { id, companyId: 1, alertTypeId, name: `configuration ${id}`, settings };
}

export function lookupOf(geofences: readonly (IndexedGeofence & { name: string })[] = []): GeofenceLookup {
  const names = new Map(geofences.map((geofence) => [geofence.id, geofence.name]));
  return { index: new GeofenceIndex(geofences), nameOf: (id) => names.get(id) };
}

export interface Run {
  /** The firings of each step, in step order. */
  firings: Firing[][];
  memories: VehicleMemory[];
}

export function run(
  configurations: readonly CoveringConfiguration[],
  steps: readonly Step[],
  geofences: GeofenceLookup = lookupOf(),
  start: VehicleMemory = emptyMemory(),
): Run {
  let memory = start;
  const result: Run = { firings: [], memories: [] };
  steps.forEach((step, index) => {
    const { at, fixTime, lat, lng, ...readings } = step;
    const fix = {
      vehicleId: 7,
      fixTime: fixTime ?? T0 + (at ?? index * 10) * 1000,
      lat: lat ?? LONDON.lat,
      lng: lng ?? LONDON.lng,
      readings,
    };
    const evaluation = evaluateFix(memory, fix, configurations, geofences);
    memory = JSON.parse(JSON.stringify(evaluation.memory)) as VehicleMemory;
    result.firings.push(evaluation.firings);
    result.memories.push(memory);
  });
  return result;
}

/** Which steps fire, for a single configuration of a type: `[false, true, false]`. */
export function firesOf(alertTypeId: number, settings: AlertSettings, steps: readonly Step[]): boolean[] {
  return run([configuration(1, alertTypeId, settings)], steps).firings.map((firings) => firings.length > 0);
}

/** The firings of a single configuration of a type, flattened. */
export function firingsOf(alertTypeId: number, settings: AlertSettings, steps: readonly Step[]): Firing[] {
  return run([configuration(1, alertTypeId, settings)], steps).firings.flat();
}
