import type { AlertDataV1, AlertSettings, PositionReadingsV1 } from '@fleet/contracts';
import type { GeofenceIndex } from '@fleet/geo';

/**
 * The pure core of the engine: one vehicle's fix, evaluated against the configurations covering the
 * vehicle, with what the rules remembered of the vehicle; gives the alerts that fire and the memory to
 * keep. No I/O: the consumer loads and stores the memory and the records around it.
 */

/** One position of a vehicle, as the rules see it. */
export interface RuleFix {
  vehicleId: number;
  /** Fix time, epoch milliseconds. */
  fixTime: number;
  lat: number;
  lng: number;
  readings: PositionReadingsV1;
}

/** An active configuration that covers the vehicle (coverage is decided before evaluation). */
export interface CoveringConfiguration {
  id: number;
  companyId: number;
  alertTypeId: number;
  name: string;
  /** With the type's defaults filled in. */
  settings: AlertSettings;
}

/** The geofences of the companies whose configurations are evaluated, and their names. */
export interface GeofenceLookup {
  /** The index holding every geofence a covering configuration may name. */
  index: GeofenceIndex;
  nameOf(geofenceId: number): string | undefined;
}

/**
 * What the rules remember of a vehicle between fixes: stored as JSON in `alerts.vehicle_states`.
 * `version` lets a later change of this shape read older rows.
 */
export interface VehicleMemory {
  version: 1;
  /** The newest fix evaluated; absent before the vehicle's first fix. */
  previous?: {
    fixTime: number;
    lat: number;
    lng: number;
    speedKmh?: number;
    ignition?: boolean;
    charging?: boolean;
  };
  /** Ids of the geofences the vehicle is inside, among those a covering configuration watches. */
  insideGeofences: number[];
  /** Each configuration's episode state, by configuration id; absent is the rule's resting state. */
  episodes: Record<string, Record<string, unknown>>;
}

export const emptyMemory = (): VehicleMemory => ({ version: 1, insideGeofences: [], episodes: {} });

/** An alert the fix fired. */
export interface Firing {
  configurationId: number;
  alertTypeId: number;
  /** A sentence for the record's `description`, e.g. `Speed 112 km/h above the maximum of 100 km/h`. */
  description: string;
  /** The type's webhook data (catalog), or null. */
  data: AlertDataV1 | null;
}

export interface Evaluation {
  memory: VehicleMemory;
  firings: Firing[];
}

/**
 * Evaluates one fix. The caller has already dropped fixes not newer than `memory.previous.fixTime`
 * (a late fix never fires an edge rule), and passes the fixes of one vehicle in fix-time order.
 *
 * Placeholder until the rules land: overspeed (type 10, zero minimum duration) and geofence entry
 * (type 1) only; docs/alerts.md will give every rule's semantics.
 */
export function evaluateFix(
  memory: VehicleMemory,
  fix: RuleFix,
  configurations: readonly CoveringConfiguration[],
  geofences: GeofenceLookup,
): Evaluation {
  const firings: Firing[] = [];
  const episodes = { ...memory.episodes };
  const inside = geofences.index.containing(fix).map((geofence) => geofence.id);
  for (const configuration of configurations) {
    if (configuration.alertTypeId === 10 && fix.readings.speedKmh !== undefined) {
      const maxSpeed = configuration.settings.maxSpeedKmh ?? 100;
      const fired = episodes[configuration.id]?.fired === true;
      if (fix.readings.speedKmh > maxSpeed && !fired) {
        episodes[configuration.id] = { fired: true };
        firings.push({
          configurationId: configuration.id,
          alertTypeId: 10,
          description: `Speed ${fix.readings.speedKmh} km/h above the maximum of ${maxSpeed} km/h`,
          data: { speed: fix.readings.speedKmh, maxSpeed },
        });
      } else if (fix.readings.speedKmh <= maxSpeed) {
        delete episodes[configuration.id];
      }
    }
    const geofenceId = configuration.settings.geofenceId;
    if (configuration.alertTypeId === 1 && geofenceId !== undefined && memory.previous) {
      if (inside.includes(geofenceId) && !memory.insideGeofences.includes(geofenceId)) {
        const geofenceName = geofences.nameOf(geofenceId) ?? String(geofenceId);
        firings.push({
          configurationId: configuration.id,
          alertTypeId: 1,
          description: `Entered geofence ${geofenceName}`,
          data: { geofenceName, isExit: false },
        });
      }
    }
  }
  return {
    memory: {
      version: 1,
      previous: {
        fixTime: fix.fixTime,
        lat: fix.lat,
        lng: fix.lng,
        speedKmh: fix.readings.speedKmh,
        ignition: fix.readings.ignition,
        charging: fix.readings.charging,
      },
      insideGeofences: inside,
      episodes,
    },
    firings,
  };
}
