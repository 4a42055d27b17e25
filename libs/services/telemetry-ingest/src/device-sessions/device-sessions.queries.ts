import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';

/** A tracker's registration in ingest's projection of the vehicle registry (`ingest.device_sessions`). */
export interface DeviceSessionRow {
  imei: string;
  vehicle_id: number;
  /** Null for a row projected before ingest kept the companies. */
  company_ids: number[] | null;
}

/**
 * SQL that reads ingest's projection of the vehicle registry (`ingest.device_sessions`) for the
 * device ports; the projection is written by the platform's applySnapshotRows (device-directory.ts).
 */
@Injectable()
export class DeviceSessionQueries {
  constructor(@InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource) {}

  /** The registration of each of `imeis` that has one. */
  async registrationsOf(imeis: readonly string[]): Promise<DeviceSessionRow[]> {
    return this.dataSource.query(
      // Newest registration wins if a tracker was moved between vehicles.
      `SELECT DISTINCT ON (imei) imei, vehicle_id, company_ids FROM ingest.device_sessions
        WHERE imei = ANY($1::text[]) ORDER BY imei, updated_at DESC`,
      [imeis],
    );
  }
}
