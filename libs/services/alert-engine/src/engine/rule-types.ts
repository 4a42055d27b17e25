import type { AlertDataV1, AlertSettings, PositionReadingsV1 } from '@fleet/contracts';
import type { GeofenceIndex } from '@fleet/geo';

/** The types the rules share with the evaluation that runs them (./evaluation.ts). */

/** One position of a vehicle, as the rules see it. */
export interface RuleFix {
  vehicleId: number;
  /**
   * The fix's place in the vehicle's order, epoch milliseconds: its fix time, or its arrival when the
   * device's clock put the fix ahead of it (`fixOrderMs`, issue 54). What the rules measure durations
   * and order by; the record keeps the fix time the device reported.
   */
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

/** The newest fix evaluated, as the rules compare the next one against it. */
export interface PreviousFix {
  /** Epoch milliseconds. */
  fixTime: number;
  lat: number;
  lng: number;
  /** This fix's own speed (harsh events pair consecutive fixes); absent when it reported none. */
  speedKmh?: number;
  /** The last ignition reported, carried over fixes that report none. */
  ignition?: boolean;
  /** The last charging state reported, carried over fixes that report none. */
  charging?: boolean;
}

/**
 * A configuration's episode while it is not at rest: `since` is the fix time its condition started
 * (rules with a duration), `fired` that it fired and waits to re-arm. Rules at rest store nothing, so
 * a vehicle covered by a thousand quiet configurations keeps a small state.
 */
export interface Episode {
  since?: number;
  fired?: true;
}

/** An alert the fix fired. */
export interface Firing {
  configurationId: number;
  alertTypeId: number;
  /** A sentence for the record's `description`, e.g. `Speed 112 km/h, above the maximum of 100 km/h`. */
  description: string;
  /** The type's webhook data (catalog), or null. */
  data: AlertDataV1 | null;
}
