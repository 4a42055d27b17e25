import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VehicleSnapshotV1 } from '@fleet/contracts';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema';

/** Answers "which vehicle is this tracker?" from ingest's projection of the vehicle registry. */
@Injectable()
export class DeviceDirectory {
  constructor(@InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource) {}

  /** Vehicle ids of the given IMEIs; unknown IMEIs are absent from the map. */
  async resolve(imeis: readonly string[]): Promise<Map<string, number>> {
    const unique = [...new Set(imeis)];
    if (unique.length === 0) return new Map();
    const rows: { imei: string; vehicle_id: number }[] = await this.dataSource.query(
      // Newest registration wins if a tracker was moved between vehicles.
      `SELECT DISTINCT ON (imei) imei, vehicle_id FROM ingest.device_sessions
        WHERE imei = ANY($1::text[]) ORDER BY imei, updated_at DESC`,
      [unique],
    );
    return new Map(rows.map((row) => [row.imei, row.vehicle_id]));
  }

  /** Applies snapshots in order; a snapshot older than the stored one is ignored (idempotent on redelivery). */
  async apply(snapshots: readonly VehicleSnapshotV1[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      for (const snapshot of snapshots) {
        if (snapshot.deleted) {
          await manager.query(`DELETE FROM ingest.device_sessions WHERE vehicle_id = $1 AND version <= $2`, [
            snapshot.vehicleId,
            snapshot.version,
          ]);
          continue;
        }
        await manager.query(
          `INSERT INTO ingest.device_sessions (vehicle_id, imei, version, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (vehicle_id) DO UPDATE SET imei = EXCLUDED.imei, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
           WHERE device_sessions.version < EXCLUDED.version`,
          [snapshot.vehicleId, snapshot.imei, snapshot.version, snapshot.updatedAt],
        );
      }
    });
  }
}
