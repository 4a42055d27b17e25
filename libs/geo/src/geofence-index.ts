import RBush from 'rbush';
import { LatLng } from './distance';
import { boundingBoxOf, GeofenceShape, metresOutside, shapeContains } from './geofence';

/** A geofence as an index holds it: its id and shape. */
export interface IndexedGeofence {
  id: number;
  shape: GeofenceShape;
}

interface Entry {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  geofence: IndexedGeofence;
}

/**
 * Geofences in an R-tree (rbush) over their bounding boxes, so that finding the ones containing a
 * point costs about log(n) plus the few whose boxes hold it, however many a company draws.
 *
 * rbush 3.x is the CommonJS line (4.x is ESM only) and the one turf 7 itself depends on.
 */
export class GeofenceIndex {
  private readonly tree = new RBush<Entry>();
  private readonly byId = new Map<number, IndexedGeofence>();

  constructor(geofences: readonly IndexedGeofence[] = []) {
    const entries = geofences.map((geofence) => {
      const box = boundingBoxOf(geofence.shape);
      this.byId.set(geofence.id, geofence);
      return { minX: box.minLng, minY: box.minLat, maxX: box.maxLng, maxY: box.maxLat, geofence };
    });
    this.tree.load(entries);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): IndexedGeofence | undefined {
    return this.byId.get(id);
  }

  /** The geofences whose shape contains `at`. */
  containing(at: LatLng): IndexedGeofence[] {
    return this.tree
      .search({ minX: at.lng, minY: at.lat, maxX: at.lng, maxY: at.lat })
      .filter((entry) => shapeContains(entry.geofence.shape, at))
      .map((entry) => entry.geofence);
  }

  /** How far `at` lies outside geofence `id` (metres; 0 or less inside), or undefined for an unknown id. */
  metresOutside(id: number, at: LatLng): number | undefined {
    const geofence = this.byId.get(id);
    return geofence ? metresOutside(geofence.shape, at) : undefined;
  }
}
