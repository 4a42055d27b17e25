import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SourceNetworks } from '../osmand/source-networks';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema';
import { DeviceSettingRow, SETTINGS_OF } from './device-settings.queries';

/** A tracker's operator settings, as sessions use them. */
export interface DeviceSettings {
  commandProfile: string | null;
  /** Undefined: any network the port allows. */
  allowedNetworks?: SourceNetworks;
}

/**
 * Reads the operators' tracker settings (set with `npm run admin -- devices:set`). Read at each login,
 * so a change applies from the device's next connection.
 */
@Injectable()
export class DeviceSettingsService {
  constructor(@InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource) {}

  async of(vehicleId: number): Promise<DeviceSettings | undefined> {
    const [row] = (await this.dataSource.query(SETTINGS_OF, [[vehicleId]])) as DeviceSettingRow[];
    return row === undefined ? undefined : settingsOf(row);
  }
}

export function settingsOf(row: DeviceSettingRow): DeviceSettings {
  return {
    commandProfile: row.command_profile,
    ...(row.allowed_networks ? { allowedNetworks: SourceNetworks.parse(row.allowed_networks) } : {}),
  };
}
