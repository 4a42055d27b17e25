import { CompanyDirectory, Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { DeviceSettingsCache } from './device-settings.cache';
import { DeviceSettingsException } from './device-settings.exception';
import { DeviceSettings, DeviceSettingsView, settingsOf, viewOf } from './device-settings.model';
import { DeviceSettingsChange } from './device-settings.rules';
import { DeviceSettingsStore } from './device-settings.store';

export type { DeviceSettings } from './device-settings.model';

/** A change as stored, with the new secret when one was asked for (shown this once). */
export interface ChangedDeviceSettings {
  view: DeviceSettingsView;
  secret?: string;
}

/**
 * The operators' tracker settings (docs/device-settings.md): read and changed by the route
 * `/v2/api/vehicles/{id}/device-settings` for a token that reaches the vehicle (and by the admin CLI, on
 * its own DataSource, through the same store and rules).
 */
@Injectable()
export class DeviceSettingsService {
  constructor(
    private readonly store: DeviceSettingsStore,
    private readonly cache: DeviceSettingsCache,
    private readonly companies: CompanyDirectory,
  ) {}

  /**
   * The vehicle's settings as stored now (the frame replayer's read; reports and logins go through
   * DeviceSettingsCache); undefined when none were set.
   */
  async of(vehicleId: number): Promise<DeviceSettings | undefined> {
    const [row] = await this.store.read([vehicleId]);
    return row === undefined ? undefined : settingsOf(row);
  }

  /** The settings of a vehicle the token reaches; 404 otherwise. */
  async show(principal: Principal, vehicleId: number): Promise<DeviceSettingsView> {
    await this.reachable(principal, vehicleId);
    const [row] = await this.store.read([vehicleId]);
    return viewOf(vehicleId, row);
  }

  /** Applies the change to a vehicle the token reaches (404 otherwise); this replica uses it at once. */
  async change(
    principal: Principal,
    vehicleId: number,
    change: DeviceSettingsChange,
  ): Promise<ChangedDeviceSettings> {
    await this.reachable(principal, vehicleId);
    const { row, secret } = await this.store.write(vehicleId, change);
    this.cache.forget(vehicleId);
    return secret === undefined ? { view: viewOf(vehicleId, row) } : { view: viewOf(vehicleId, row), secret };
  }

  /**
   * A token reaches the vehicles of its company and the companies below it (as ingest's registry
   * projection has them), narrowed by its `Vehicles` allowlist; anything else, and a vehicle ingest does
   * not know, is 404, as on every vehicle route.
   */
  private async reachable(principal: Principal, vehicleId: number): Promise<void> {
    const allowed = principal.vehicles === undefined || principal.vehicles.includes(vehicleId);
    const companyIds = allowed ? await this.store.companiesOf(vehicleId) : undefined;
    const reached = (companyIds ?? []).some((companyId) =>
      this.companies.isWithin(principal.companyId, companyId),
    );
    if (!reached) throw DeviceSettingsException.vehicleNotFound(vehicleId);
  }
}
