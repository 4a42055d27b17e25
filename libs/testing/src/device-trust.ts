import { Pool } from 'pg';

/** Where the tests' trackers connect from: this machine. */
export const LOOPBACK_NETWORKS = ['127.0.0.0/8', '::1/128'];

/**
 * Pins the vehicles' trackers to this machine in telemetry-ingest's settings, as an operator pins real
 * ones to their APN: commands go only to devices that prove who they are (docs/security.md, F1), and a
 * report or login from the pinned networks does (on OsmAnd too). Written to the table directly, as
 * `npm run admin -- devices:set --networks` does; a running ingest reads it within its cache time.
 */
export async function pinTrackersToLoopback(pool: Pool, vehicleIds: readonly number[]): Promise<void> {
  await pool.query(
    `INSERT INTO ingest.device_settings (vehicle_id, allowed_networks)
     SELECT vehicle_id, $2::text[] FROM unnest($1::int[]) AS vehicle_id
     ON CONFLICT (vehicle_id) DO UPDATE SET allowed_networks = EXCLUDED.allowed_networks, updated_at = now()`,
    [vehicleIds, LOOPBACK_NETWORKS],
  );
}
