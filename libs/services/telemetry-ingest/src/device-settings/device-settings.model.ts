import { SourceNetworks } from '../osmand/source-networks';
import { DeviceSettingRow } from './device-settings.queries';

/** A tracker's operator settings, as the ports and the intake use them. */
export interface DeviceSettings {
  commandProfile: string | null;
  /** Undefined: any network the port allows. */
  allowedNetworks?: SourceNetworks;
  /** SHA-256 (hex) of the OsmAnd secret its reports must carry; null when none is required. */
  secretHash: string | null;
  /** Added to the device's fix times before any check. */
  clockOffsetSeconds: number;
  /** The operator opted the device out of authenticated commands (docs/security.md, F1). */
  insecureCommands: boolean;
}

/** The settings of a vehicle without a row: the defaults. */
export const NO_DEVICE_SETTINGS: DeviceSettings = Object.freeze({
  commandProfile: null,
  secretHash: null,
  clockOffsetSeconds: 0,
  insecureCommands: false,
});

export function settingsOf(row: DeviceSettingRow): DeviceSettings {
  return {
    commandProfile: row.command_profile,
    ...(row.allowed_networks ? { allowedNetworks: SourceNetworks.parse(row.allowed_networks) } : {}),
    secretHash: row.secret_hash,
    clockOffsetSeconds: row.clock_offset_seconds,
    insecureCommands: row.insecure_commands,
  };
}

/** A tracker's settings as operators see them (the route and the admin CLI): never the secret's hash. */
export interface DeviceSettingsView {
  vehicleId: number;
  commandProfile: string | null;
  allowedNetworks: string[] | null;
  clockOffsetSeconds: number;
  secretRequired: boolean;
  /** The operator opted the device out of authenticated commands: shown as a warning. */
  insecureCommands: boolean;
  /** When an operator last changed them; null when never. */
  updatedAt: Date | null;
}

export function viewOf(vehicleId: number, row: DeviceSettingRow | undefined): DeviceSettingsView {
  return {
    vehicleId,
    commandProfile: row?.command_profile ?? null,
    allowedNetworks: row?.allowed_networks ?? null,
    clockOffsetSeconds: row?.clock_offset_seconds ?? 0,
    secretRequired: Boolean(row?.secret_hash),
    insecureCommands: row?.insecure_commands ?? false,
    updatedAt: row ? new Date(row.updated_at) : null,
  };
}
