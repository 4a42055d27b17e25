import { TelemetryIngestConfig } from '../telemetry-ingest.config';
import { DeviceSettingsCache } from './device-settings.cache';
import { NO_DEVICE_SETTINGS } from './device-settings.model';
import { DeviceSettingRow } from './device-settings.queries';
import { DeviceSettingsStore } from './device-settings.store';

/** A store over a table held in memory, counting its reads; a read may be held back to race with a change. */
class TableStore {
  readonly rows = new Map<number, DeviceSettingRow>();
  reads: number[][] = [];
  private held?: Promise<void>;
  private release?: () => void;

  set(vehicleId: number, fields: Partial<DeviceSettingRow>): void {
    this.rows.set(vehicleId, {
      vehicle_id: vehicleId,
      command_profile: null,
      allowed_networks: null,
      secret_hash: null,
      clock_offset_seconds: 0,
      insecure_commands: false,
      updated_at: new Date(),
      ...fields,
    });
  }

  /** The next read answers what the table holds when it started, once `resume()` is called. */
  hold(): () => void {
    this.held = new Promise((resolve) => (this.release = resolve));
    return () => this.release?.();
  }

  async read(vehicleIds: readonly number[]): Promise<DeviceSettingRow[]> {
    this.reads.push([...vehicleIds]);
    const answer = vehicleIds.flatMap((id) => (this.rows.has(id) ? [{ ...this.rows.get(id)! }] : []));
    const held = this.held;
    this.held = undefined;
    if (held) await held;
    return answer;
  }
}

describe('DeviceSettingsCache', () => {
  let store: TableStore;
  let cache: DeviceSettingsCache;
  let now: number;

  const open = (cacheSeconds = 5) => {
    store = new TableStore();
    cache = new DeviceSettingsCache(
      store as unknown as DeviceSettingsStore,
      {
        deviceCacheSeconds: cacheSeconds,
      } as TelemetryIngestConfig,
    );
    now = 1_000_000;
    cache.clock = () => now;
  };
  /** Lets the background refresh run. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(() => open());

  it('answers the defaults for a vehicle without settings, and the stored ones otherwise', async () => {
    store.set(2, { clock_offset_seconds: -7200, secret_hash: 'ab', allowed_networks: ['10.0.0.0/8'] });
    const settings = await cache.ofMany([1, 2]);
    expect(settings.get(1)).toEqual(NO_DEVICE_SETTINGS);
    expect(settings.get(2)).toMatchObject({ clockOffsetSeconds: -7200, secretHash: 'ab' });
    expect(settings.get(2)?.allowedNetworks?.admits('10.1.2.3')).toBe(true);
    expect(store.reads).toEqual([[1, 2]]);
  });

  it('reads a vehicle once per cache period, however many reports it sends', async () => {
    for (let report = 0; report < 10; report += 1) await cache.of(7);
    expect(store.reads).toEqual([[7]]);
  });

  it('uses an answer past its time once more while one read refreshes all such vehicles', async () => {
    await cache.ofMany([1, 2]);
    store.set(1, { clock_offset_seconds: 60 });
    now += 5_000;
    expect((await cache.ofMany([1, 2])).get(1)?.clockOffsetSeconds).toBe(0);
    await settle();
    expect(store.reads).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect((await cache.of(1)).clockOffsetSeconds).toBe(60);
    expect(store.reads).toHaveLength(2);
  });

  it('reads a forgotten vehicle again at once', async () => {
    await cache.of(3);
    store.set(3, { secret_hash: 'cd' });
    cache.forget(3);
    expect((await cache.of(3)).secretHash).toBe('cd');
  });

  it('does not keep what a read begun before a change found', async () => {
    const resume = store.hold();
    const before = cache.of(4);
    store.set(4, { secret_hash: 'ef' });
    cache.forget(4);
    resume();
    expect((await before).secretHash).toBeNull();
    expect((await cache.of(4)).secretHash).toBe('ef');
  });

  it('remembers nothing when the cache time is 0', async () => {
    open(0);
    await cache.of(5);
    await cache.of(5);
    expect(store.reads).toEqual([[5], [5]]);
  });
});
