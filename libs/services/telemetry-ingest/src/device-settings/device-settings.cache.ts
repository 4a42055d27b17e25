import { Inject, Injectable } from '@nestjs/common';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { DeviceSettings, NO_DEVICE_SETTINGS, settingsOf } from './device-settings.model';
import { DeviceSettingsStore } from './device-settings.store';

/** Most vehicles remembered; beyond it the cache starts over. */
const CACHE_LIMIT = 200_000;

interface Entry {
  settings: DeviceSettings;
  expiresAt: number;
}

/**
 * The settings every report needs (secret, networks, clock offset), remembered per vehicle for
 * INGEST_DEVICE_CACHE_SECONDS, as the DeviceDirectory remembers IMEIs: a report waits for the database
 * only when its vehicle is new to this replica. An answer past its time is used once more while one
 * query in the background refreshes every such vehicle together. A change made through this replica
 * (`forget`) applies to the next report at once; other replicas, and the admin CLI's changes, apply
 * within the cache time plus one refresh (docs/device-settings.md).
 */
@Injectable()
export class DeviceSettingsCache {
  private readonly cache = new Map<number, Entry>();
  private readonly stale = new Set<number>();
  /** Per vehicle, the number of the change that last forgot it: a read begun before it is not kept. */
  private readonly forgotten = new Map<number, number>();
  private changes = 0;
  private refreshing = false;
  private readonly lifetimeMs: number;
  /** Replaced in unit tests. */
  clock: () => number = Date.now;

  constructor(
    private readonly store: DeviceSettingsStore,
    @Inject(TELEMETRY_INGEST_CONFIG) config: TelemetryIngestConfig,
  ) {
    this.lifetimeMs = config.deviceCacheSeconds * 1000;
  }

  /** The vehicle's settings; the defaults when an operator set none. */
  async of(vehicleId: number): Promise<DeviceSettings> {
    return (await this.ofMany([vehicleId])).get(vehicleId) ?? NO_DEVICE_SETTINGS;
  }

  /** The settings of each vehicle given (the defaults for those without any). */
  async ofMany(vehicleIds: readonly number[]): Promise<Map<number, DeviceSettings>> {
    const now = this.clock();
    const found = new Map<number, DeviceSettings>();
    const missing: number[] = [];
    for (const vehicleId of new Set(vehicleIds)) {
      const cached = this.cache.get(vehicleId);
      if (!cached) {
        missing.push(vehicleId);
        continue;
      }
      found.set(vehicleId, cached.settings);
      if (cached.expiresAt <= now) this.stale.add(vehicleId);
    }
    if (this.stale.size > 0) this.refreshStale();
    if (missing.length === 0) return found;
    const loaded = await this.load(missing);
    for (const vehicleId of missing) found.set(vehicleId, loaded.get(vehicleId) ?? NO_DEVICE_SETTINGS);
    return found;
  }

  /** The vehicle's settings changed: the next report reads them again. */
  forget(vehicleId: number): void {
    this.changes += 1;
    this.forgotten.set(vehicleId, this.changes);
    this.cache.delete(vehicleId);
    this.stale.delete(vehicleId);
  }

  private async load(vehicleIds: readonly number[]): Promise<Map<number, DeviceSettings>> {
    const begunAt = this.changes;
    const rows = await this.store.read(vehicleIds);
    const loaded = new Map(rows.map((row) => [row.vehicle_id, settingsOf(row)]));
    this.remember(vehicleIds, loaded, begunAt);
    return loaded;
  }

  /** One query at a time for every vehicle whose answer has run out; a failure keeps them for the next try. */
  private refreshStale(): void {
    if (this.refreshing) return;
    this.refreshing = true;
    const vehicleIds = [...this.stale];
    this.stale.clear();
    let failed = false;
    this.load(vehicleIds)
      .catch(() => {
        failed = true;
        for (const vehicleId of vehicleIds) this.stale.add(vehicleId);
      })
      .finally(() => {
        this.refreshing = false;
        if (this.stale.size > 0 && !failed) this.refreshStale();
      });
  }

  private remember(
    vehicleIds: readonly number[],
    loaded: Map<number, DeviceSettings>,
    begunAt: number,
  ): void {
    if (this.lifetimeMs <= 0) return;
    const expiresAt = this.clock() + this.lifetimeMs;
    if (this.cache.size + vehicleIds.length > CACHE_LIMIT) this.cache.clear();
    for (const vehicleId of vehicleIds) {
      // Changed while this read was under way: what it read may be the old settings.
      if ((this.forgotten.get(vehicleId) ?? 0) > begunAt) continue;
      this.cache.set(vehicleId, { settings: loaded.get(vehicleId) ?? NO_DEVICE_SETTINGS, expiresAt });
    }
  }
}
