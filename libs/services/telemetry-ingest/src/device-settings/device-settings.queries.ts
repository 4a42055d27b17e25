import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';

/**
 * SQL of the operators' tracker settings (`ingest.device_settings`), and DeviceSettingsQueries below,
 * which runs it typed in and out.
 */

export interface DeviceSettingRow {
  vehicle_id: number;
  command_profile: string | null;
  allowed_networks: string[] | null;
  secret_hash: string | null;
  clock_offset_seconds: number;
  insecure_commands: boolean;
  updated_at: Date;
}

const COLUMNS =
  'vehicle_id, command_profile, allowed_networks, secret_hash, clock_offset_seconds, insecure_commands, updated_at';

/** The settings of the vehicles $1 (int[]). */
const SETTINGS_OF = `
  SELECT ${COLUMNS} FROM ingest.device_settings WHERE vehicle_id = ANY($1::int[])`;

/**
 * Sets the vehicle's ($1) profile ($2), networks ($3), secret hash ($4), clock offset ($5) and
 * insecure-commands opt-out ($10), each only when its flag ($6 profile, $7 networks, $8 secret, $9
 * offset, $11 opt-out) is true: one setting changes without the others. A vehicle without a row gets
 * one, the unflagged settings at their defaults.
 */
const UPSERT_SETTINGS = `
  INSERT INTO ingest.device_settings AS s
    (vehicle_id, command_profile, allowed_networks, secret_hash, clock_offset_seconds, insecure_commands, updated_at)
  VALUES (
    $1,
    CASE WHEN $6::boolean THEN $2::text END,
    CASE WHEN $7::boolean THEN $3::text[] END,
    CASE WHEN $8::boolean THEN $4::text END,
    CASE WHEN $9::boolean THEN $5::integer ELSE 0 END,
    CASE WHEN $11::boolean THEN $10::boolean ELSE false END,
    now())
  ON CONFLICT (vehicle_id) DO UPDATE SET
    command_profile = CASE WHEN $6::boolean THEN EXCLUDED.command_profile ELSE s.command_profile END,
    allowed_networks = CASE WHEN $7::boolean THEN EXCLUDED.allowed_networks ELSE s.allowed_networks END,
    secret_hash = CASE WHEN $8::boolean THEN EXCLUDED.secret_hash ELSE s.secret_hash END,
    clock_offset_seconds = CASE WHEN $9::boolean THEN EXCLUDED.clock_offset_seconds ELSE s.clock_offset_seconds END,
    insecure_commands = CASE WHEN $11::boolean THEN EXCLUDED.insecure_commands ELSE s.insecure_commands END,
    updated_at = now()
  RETURNING ${COLUMNS}`;

/** The companies of the vehicle $1 as ingest's registry projection has them (no row: unknown vehicle). */
const COMPANIES_OF_VEHICLE = `
  SELECT company_ids FROM ingest.device_sessions WHERE vehicle_id = $1`;

/** A change to one vehicle's settings as stored: a field left undefined keeps its value. */
export interface SettingsUpsert {
  commandProfile?: string | null;
  allowedNetworks?: string[] | null;
  /** The hash of the device secret, or null for none. */
  secretHash?: string | null;
  clockOffsetSeconds?: number;
  insecureCommands?: boolean;
}

/** The statements above, typed. */
@Injectable()
export class DeviceSettingsQueries {
  constructor(@InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource) {}

  /** The stored settings of `vehicleIds` (SETTINGS_OF); a vehicle without a row has none. */
  async settingsOf(vehicleIds: readonly number[]): Promise<DeviceSettingRow[]> {
    return (await this.dataSource.query(SETTINGS_OF, [vehicleIds])) as DeviceSettingRow[];
  }

  /** Applies the change to the vehicle's row, creating it (UPSERT_SETTINGS); the row as stored. */
  async upsert(vehicleId: number, change: SettingsUpsert): Promise<DeviceSettingRow> {
    const [row] = (await this.dataSource.query(UPSERT_SETTINGS, [
      vehicleId,
      change.commandProfile ?? null,
      change.allowedNetworks ?? null,
      change.secretHash ?? null,
      change.clockOffsetSeconds ?? 0,
      change.commandProfile !== undefined,
      change.allowedNetworks !== undefined,
      change.secretHash !== undefined,
      change.clockOffsetSeconds !== undefined,
      change.insecureCommands ?? false,
      change.insecureCommands !== undefined,
    ])) as DeviceSettingRow[];
    return row;
  }

  /**
   * The vehicle's companies in ingest's registry projection (COMPANIES_OF_VEHICLE): undefined when it
   * has no row, null when its row predates the companies.
   */
  async companiesOf(vehicleId: number): Promise<number[] | null | undefined> {
    const [row] = (await this.dataSource.query(COMPANIES_OF_VEHICLE, [vehicleId])) as {
      company_ids: number[] | null;
    }[];
    return row === undefined ? undefined : row.company_ids;
  }
}
