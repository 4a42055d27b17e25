import { randomUUID } from 'node:crypto';
import { PositionReadingsV1, PositionReportedV1 } from '@fleet/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { PositionSink } from './position-sink';

/** A tracker report after protocol parsing, before it is tied to a vehicle. */
export interface NormalizedReport {
  /** The tracker's IMEI. */
  deviceId: string;
  /** Absent when the tracker sent no time: the receive time stands in. */
  fixTime?: Date;
  lat: number;
  lng: number;
  readings: PositionReadingsV1;
}

/** A report the platform refuses as a whole; `index` is its place in the request (0 for single reports). */
export class RejectedReport extends Error {
  constructor(
    readonly reason: 'unknown-device' | 'invalid',
    readonly index: number,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RejectedReport';
  }
}

/** Turns accepted device reports into position events on the broker. */
@Injectable()
export class PositionIntakeService {
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly sink: PositionSink,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
  ) {}

  /**
   * All or nothing: if any report names an unknown device or is unusable, nothing is published and the
   * first problem is thrown as a RejectedReport. Resolves only once the broker holds every event, so a
   * 2xx to the device means the positions cannot be lost.
   */
  async accept(reports: readonly NormalizedReport[], receivedAt = new Date()): Promise<{ accepted: number }> {
    const vehicles = await this.directory.resolve(reports.map((report) => report.deviceId));
    const latest = receivedAt.getTime() + this.config.maxFutureSkewSeconds * 1000;
    const received = receivedAt.toISOString();
    const events: PositionReportedV1[] = reports.map((report, index) => {
      const vehicleId = vehicles.get(report.deviceId);
      if (vehicleId === undefined) {
        throw new RejectedReport('unknown-device', index, 'deviceId', `unknown device "${report.deviceId}"`);
      }
      const fixTime = report.fixTime ?? receivedAt;
      if (fixTime.getTime() > latest) {
        throw new RejectedReport(
          'invalid',
          index,
          'timestamp',
          `timestamp ${fixTime.toISOString()} is in the future`,
        );
      }
      return {
        ...report.readings,
        eventId: randomUUID(),
        vehicleId,
        imei: report.deviceId,
        fixTime: report.fixTime ? fixTime.toISOString() : received,
        receivedAt: received,
        lat: report.lat,
        lng: report.lng,
      };
    });
    await this.sink.publish(events);
    return { accepted: events.length };
  }
}
