import { Injectable } from '@nestjs/common';
import { generateDeviceSecret, hashDeviceSecret } from './device-secret';
import { DeviceSettingsChange } from './device-settings.rules';
import { DeviceSettingRow, DeviceSettingsQueries } from './device-settings.queries';

/** A stored change, and the new secret when the change asked for one (the only time it exists). */
export interface WrittenDeviceSettings {
  row: DeviceSettingRow;
  secret?: string;
}

/**
 * `ingest.device_settings` read and written, for the service (route, sessions, caches) and the admin
 * CLI alike (which builds it on its own DataSource).
 */
@Injectable()
export class DeviceSettingsStore {
  constructor(private readonly queries: DeviceSettingsQueries) {}

  async read(vehicleIds: readonly number[]): Promise<DeviceSettingRow[]> {
    return this.queries.settingsOf(vehicleIds);
  }

  /** Applies the change; a new secret is generated here and only its hash is stored. */
  async write(vehicleId: number, change: DeviceSettingsChange): Promise<WrittenDeviceSettings> {
    const secret = change.secret === 'new' ? generateDeviceSecret() : undefined;
    const row = await this.queries.upsert(vehicleId, {
      commandProfile: change.commandProfile,
      allowedNetworks: change.allowedNetworks,
      // `clear` stores no hash.
      secretHash:
        change.secret === undefined ? undefined : secret === undefined ? null : hashDeviceSecret(secret),
      clockOffsetSeconds: change.clockOffsetSeconds,
      insecureCommands: change.insecureCommands,
    });
    return secret === undefined ? { row } : { row, secret };
  }

  /**
   * The vehicle's companies in ingest's registry projection: undefined when ingest does not know the
   * vehicle, null when its row predates the companies (no token reaches it yet).
   */
  async companiesOf(vehicleId: number): Promise<number[] | null | undefined> {
    return this.queries.companiesOf(vehicleId);
  }
}
