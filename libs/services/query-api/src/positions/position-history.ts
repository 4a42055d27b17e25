import { PositionReportedV1 } from '@fleet/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/** Writes position events into history. Idempotent: a redelivered event id is skipped. */
@Injectable()
export class PositionHistory {
  constructor(@InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource) {}

  /** One multi-row statement per batch; returns how many rows were new. */
  async append(events: readonly PositionReportedV1[]): Promise<number> {
    if (events.length === 0) return 0;
    const column = <K extends keyof PositionReportedV1>(key: K) => events.map((event) => event[key] ?? null);
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO query.positions
         (event_id, vehicle_id, imei, fix_time, received_at, lat, lng, speed_kmh, course, altitude_m, ignition)
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::timestamptz[], $5::timestamptz[],
                            $6::float8[], $7::float8[], $8::real[], $9::smallint[], $10::real[], $11::bool[])
       ON CONFLICT (event_id) DO NOTHING
       RETURNING event_id`,
      [
        column('eventId'),
        column('vehicleId'),
        column('imei'),
        column('fixTime'),
        column('receivedAt'),
        column('lat'),
        column('lng'),
        column('speedKmh'),
        column('course'),
        column('altitudeM'),
        column('ignition'),
      ],
    );
    return rows.length;
  }
}
