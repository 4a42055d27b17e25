import { AlertTypes } from '@fleet/contracts';
import { shapeContains } from '@fleet/geo';
import type { CoveringConfiguration, Firing, GeofenceLookup, PreviousFix, RuleFix } from '../rule-types';
import { GEOFENCE_EXIT_MARGIN_M } from './rule-constants';

/** The configurations watching one geofence: entries (type 1) and exits (type 2). */
export interface GeofenceWatchers {
  enter: CoveringConfiguration[];
  exit: CoveringConfiguration[];
}

export interface GeofenceOutcome {
  /** The watched geofences the vehicle is inside after this fix, ascending. */
  inside: number[];
  firings: Firing[];
}

/**
 * Geofence enter (type 1) and exit (type 2). The state is shared by every configuration watching a
 * geofence: the ids of the watched geofences the vehicle is inside.
 *
 * - Entry: the fix is inside a watched geofence not yet in the set. It fires only when the previous
 *   fix lay outside the shape; the vehicle's first fix, or a geofence drawn (or first watched) around
 *   a vehicle already inside, only records "inside".
 * - Exit: a geofence of the set, and the fix lies at least {@link GEOFENCE_EXIT_MARGIN_M} outside it.
 *   Closer than that it stays inside, so a vehicle parked on the border does not fire at every jitter.
 * - A geofence no longer watched, or gone from the lookup, leaves the set without firing.
 *
 * Cost: the spatial index finds the geofences containing the fix, and exits are checked for the ids
 * of the set only, however many geofences the companies draw.
 */
export function evaluateGeofences(
  inside: readonly number[],
  previous: PreviousFix | undefined,
  fix: RuleFix,
  watched: ReadonlyMap<number, GeofenceWatchers>,
  geofences: GeofenceLookup,
): GeofenceOutcome {
  const stillInside = new Set<number>();
  const firings: Firing[] = [];
  const nameOf = (id: number) => geofences.nameOf(id) ?? `#${id}`;

  for (const id of inside) {
    const watchers = watched.get(id);
    const metresOutside = geofences.index.metresOutside(id, fix);
    if (!watchers || metresOutside === undefined) continue;
    if (metresOutside < GEOFENCE_EXIT_MARGIN_M) {
      stillInside.add(id);
      continue;
    }
    const geofenceName = nameOf(id);
    for (const configuration of watchers.exit) {
      firings.push({
        configurationId: configuration.id,
        alertTypeId: AlertTypes.geofenceExit.id,
        description: `Left geofence "${geofenceName}"`,
        data: { geofenceName, isExit: true },
      });
    }
  }

  for (const geofence of geofences.index.containing(fix)) {
    const watchers = watched.get(geofence.id);
    if (!watchers || inside.includes(geofence.id)) continue;
    stillInside.add(geofence.id);
    if (!previous || shapeContains(geofence.shape, previous)) continue;
    const geofenceName = nameOf(geofence.id);
    for (const configuration of watchers.enter) {
      firings.push({
        configurationId: configuration.id,
        alertTypeId: AlertTypes.geofenceEnter.id,
        description: `Entered geofence "${geofenceName}"`,
        data: { geofenceName, isExit: false },
      });
    }
  }

  return { inside: [...stillInside].sort((a, b) => a - b), firings };
}
