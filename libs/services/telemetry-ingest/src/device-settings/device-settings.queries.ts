/** SQL of the operators' tracker settings (`ingest.device_settings`). */

export interface DeviceSettingRow {
  vehicle_id: number;
  command_profile: string | null;
  allowed_networks: string[] | null;
  secret_hash: string | null;
  clock_offset_seconds: number;
  updated_at: Date;
}

const COLUMNS =
  'vehicle_id, command_profile, allowed_networks, secret_hash, clock_offset_seconds, updated_at';

/** The settings of the vehicles $1 (int[]). */
export const SETTINGS_OF = `
  SELECT ${COLUMNS} FROM ingest.device_settings WHERE vehicle_id = ANY($1::int[])`;

/**
 * Sets the vehicle's ($1) profile ($2), networks ($3), secret hash ($4) and clock offset ($5), each
 * only when its flag ($6 profile, $7 networks, $8 secret, $9 offset) is true: one setting changes
 * without the others. A vehicle without a row gets one, the unflagged settings at their defaults.
 */
export const UPSERT_SETTINGS = `
  INSERT INTO ingest.device_settings AS s
    (vehicle_id, command_profile, allowed_networks, secret_hash, clock_offset_seconds, updated_at)
  VALUES (
    $1,
    CASE WHEN $6::boolean THEN $2::text END,
    CASE WHEN $7::boolean THEN $3::text[] END,
    CASE WHEN $8::boolean THEN $4::text END,
    CASE WHEN $9::boolean THEN $5::integer ELSE 0 END,
    now())
  ON CONFLICT (vehicle_id) DO UPDATE SET
    command_profile = CASE WHEN $6::boolean THEN EXCLUDED.command_profile ELSE s.command_profile END,
    allowed_networks = CASE WHEN $7::boolean THEN EXCLUDED.allowed_networks ELSE s.allowed_networks END,
    secret_hash = CASE WHEN $8::boolean THEN EXCLUDED.secret_hash ELSE s.secret_hash END,
    clock_offset_seconds = CASE WHEN $9::boolean THEN EXCLUDED.clock_offset_seconds ELSE s.clock_offset_seconds END,
    updated_at = now()
  RETURNING ${COLUMNS}`;

/** The companies of the vehicle $1 as ingest's registry projection has them (no row: unknown vehicle). */
export const COMPANIES_OF_VEHICLE = `
  SELECT company_ids FROM ingest.device_sessions WHERE vehicle_id = $1`;
