import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VehicleSnapshotV1 } from '@fleet/contracts';
import { applySnapshotRows, SnapshotTable } from '@fleet/platform';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';
import { DeviceSessionQueries } from './device-sessions.queries';

/** Ingest's projection of the vehicle registry: which tracker belongs to which vehicle. */
const deviceSessions: SnapshotTable<VehicleSnapshotV1> = {
  table: 'ingest.device_sessions',
  key: 'vehicle_id',
  rowOf: (snapshot) => ({
    vehicle_id: snapshot.vehicleId,
    imei: snapshot.imei,
    company_ids: snapshot.companyIds,
    version: snapshot.version,
    updated_at: snapshot.updatedAt,
  }),
  isDeleted: (snapshot) => snapshot.deleted,
};

/**
 * The vehicle a tracker reports for, and the companies the vehicle belongs to (null for a row
 * projected before ingest kept them: no token reaches it until its next snapshot).
 */
export interface RegisteredDevice {
  vehicleId: number;
  companyIds: number[] | null;
}

/** Most IMEIs remembered; beyond it the oldest entries go first. */
const CACHE_LIMIT = 200_000;

/**
 * Answers "which vehicle is this tracker?" from ingest's projection of the vehicle registry. Answers
 * (unknown ones included) are remembered for a few seconds: a busy device port asks about the same
 * trackers thousands of times a second. An answer past its time is still used once more while one
 * query in the background refreshes every such IMEI together, so a report never waits for the database
 * unless its tracker is new to this replica (a thousand trackers cost one query per cache period, not a
 * thousand). A snapshot applied by this replica refreshes its entry at once; other replicas see it
 * within the cache time plus one refresh.
 */
@Injectable()
export class DeviceDirectory {
  private readonly cache = new Map<string, { device: RegisteredDevice | undefined; expiresAt: number }>();
  private readonly stale = new Set<string>();
  private refreshing = false;

  constructor(
    @InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource,
    private readonly queries: DeviceSessionQueries,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
  ) {}

  /** The vehicles of the given IMEIs; unknown IMEIs are absent from the map. */
  async resolve(imeis: readonly string[]): Promise<Map<string, RegisteredDevice>> {
    const now = Date.now();
    const found = new Map<string, RegisteredDevice>();
    const missing: string[] = [];
    for (const imei of new Set(imeis)) {
      const cached = this.cache.get(imei);
      if (!cached) {
        missing.push(imei);
        continue;
      }
      if (cached.device !== undefined) found.set(imei, cached.device);
      if (cached.expiresAt <= now) this.stale.add(imei);
    }
    if (this.stale.size > 0) this.refreshStale();
    if (missing.length === 0) return found;
    const looked = await this.lookup(missing);
    this.remember(missing, looked, now);
    for (const imei of missing) {
      const device = looked.get(imei);
      if (device !== undefined) found.set(imei, device);
    }
    return found;
  }

  /** One query at a time for every IMEI whose answer has run out; a failure keeps them for the next try. */
  private refreshStale(): void {
    if (this.refreshing) return;
    this.refreshing = true;
    const imeis = [...this.stale];
    this.stale.clear();
    let failed = false;
    this.lookup(imeis)
      .then((looked) => this.remember(imeis, looked, Date.now()))
      .catch(() => {
        failed = true;
        for (const imei of imeis) this.stale.add(imei);
      })
      .finally(() => {
        this.refreshing = false;
        // What ran out meanwhile goes now; after a failure, at the next report.
        if (this.stale.size > 0 && !failed) this.refreshStale();
      });
  }

  private remember(imeis: readonly string[], looked: Map<string, RegisteredDevice>, now: number): void {
    if (this.config.deviceCacheSeconds <= 0) return;
    const expiresAt = now + this.config.deviceCacheSeconds * 1000;
    if (this.cache.size + imeis.length > CACHE_LIMIT) this.cache.clear();
    for (const imei of imeis) this.cache.set(imei, { device: looked.get(imei), expiresAt });
  }

  private async lookup(unique: readonly string[]): Promise<Map<string, RegisteredDevice>> {
    const rows = await this.queries.registrationsOf(unique);
    return new Map(rows.map((row) => [row.imei, { vehicleId: row.vehicle_id, companyIds: row.company_ids }]));
  }

  /** Applies snapshots in order; a snapshot older than the stored one is ignored (idempotent on redelivery). */
  async apply(snapshots: readonly VehicleSnapshotV1[]): Promise<void> {
    await this.dataSource.transaction((manager) => applySnapshotRows(manager, deviceSessions, snapshots));
    // After the commit, so that a lookup racing with it cannot cache the old answer again.
    for (const snapshot of snapshots) this.cache.delete(snapshot.imei);
  }
}
