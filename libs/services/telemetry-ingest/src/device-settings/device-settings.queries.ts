/** SQL of the operators' tracker settings (`ingest.device_settings`). */

export interface DeviceSettingRow {
  vehicle_id: number;
  command_profile: string | null;
  allowed_networks: string[] | null;
}

/** The settings of the vehicles $1 (int[]). */
export const SETTINGS_OF = `
  SELECT vehicle_id, command_profile, allowed_networks FROM ingest.device_settings
  WHERE vehicle_id = ANY($1::int[])`;

/**
 * Sets the vehicle's ($1) profile ($2) and networks ($3); a null leaves that setting as it was when
 * $4 (profile) or $5 (networks) is false, so that one setting can change without the other.
 */
export const UPSERT_SETTINGS = `
  INSERT INTO ingest.device_settings AS s (vehicle_id, command_profile, allowed_networks, updated_at)
  VALUES ($1, $2, $3, now())
  ON CONFLICT (vehicle_id) DO UPDATE SET
    command_profile = CASE WHEN $4 THEN EXCLUDED.command_profile ELSE s.command_profile END,
    allowed_networks = CASE WHEN $5 THEN EXCLUDED.allowed_networks ELSE s.allowed_networks END,
    updated_at = now()
  RETURNING vehicle_id, command_profile, allowed_networks`;
