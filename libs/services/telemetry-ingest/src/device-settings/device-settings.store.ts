import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema';
import { generateDeviceSecret, hashDeviceSecret } from './device-secret';
import { DeviceSettingsChange } from './device-settings.rules';
import {
  COMPANIES_OF_VEHICLE,
  DeviceSettingRow,
  SETTINGS_OF,
  UPSERT_SETTINGS,
} from './device-settings.queries';

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
  constructor(@InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource) {}

  async read(vehicleIds: readonly number[]): Promise<DeviceSettingRow[]> {
    return (await this.dataSource.query(SETTINGS_OF, [vehicleIds])) as DeviceSettingRow[];
  }

  /** Applies the change; a new secret is generated here and only its hash is stored. */
  async write(vehicleId: number, change: DeviceSettingsChange): Promise<WrittenDeviceSettings> {
    const secret = change.secret === 'new' ? generateDeviceSecret() : undefined;
    const [row] = (await this.dataSource.query(UPSERT_SETTINGS, [
      vehicleId,
      change.commandProfile ?? null,
      change.allowedNetworks ?? null,
      secret === undefined ? null : hashDeviceSecret(secret),
      change.clockOffsetSeconds ?? 0,
      change.commandProfile !== undefined,
      change.allowedNetworks !== undefined,
      change.secret !== undefined,
      change.clockOffsetSeconds !== undefined,
    ])) as DeviceSettingRow[];
    return secret === undefined ? { row } : { row, secret };
  }

  /**
   * The vehicle's companies in ingest's registry projection: undefined when ingest does not know the
   * vehicle, null when its row predates the companies (no token reaches it yet).
   */
  async companiesOf(vehicleId: number): Promise<number[] | null | undefined> {
    const [row] = (await this.dataSource.query(COMPANIES_OF_VEHICLE, [vehicleId])) as {
      company_ids: number[] | null;
    }[];
    return row === undefined ? undefined : row.company_ids;
  }
}
