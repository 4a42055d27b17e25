import { randomUUID } from 'node:crypto';
import { checkPositionReported, PositionReadingsV1, PositionReportedV1 } from '@fleet/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { DeviceDirectory, RegisteredDevice } from '../device-sessions/device-directory';
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

/**
 * A report the platform refuses as a whole; `index` is its place in the request (0 for single reports),
 * `field` the offending field and the message what is wrong with it (without the field's name).
 */
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

export interface IntakeOptions {
  /** Stands in for fixes without a time, and bounds the fix times accepted. */
  receivedAt?: Date;
  /**
   * Whether the sender may report for this vehicle (the batch endpoint's token); a vehicle it may not
   * reach is answered as an unknown device, so that a token cannot probe other tenants' IMEIs.
   */
  mayReport?: (device: RegisteredDevice) => boolean;
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
   * 2xx to the device means the positions cannot be lost. `vehicleIds` are the reports' vehicles, in
   * order.
   */
  async accept(
    reports: readonly NormalizedReport[],
    { receivedAt = new Date(), mayReport }: IntakeOptions = {},
  ): Promise<{ accepted: number; vehicleIds: number[] }> {
    const devices = await this.directory.resolve(reports.map((report) => report.deviceId));
    const received = receivedAt.toISOString();
    const events: PositionReportedV1[] = reports.map((report, index) => {
      const device = devices.get(report.deviceId);
      if (device === undefined || (mayReport && !mayReport(device))) {
        throw new RejectedReport('unknown-device', index, 'deviceId', `unknown device "${report.deviceId}"`);
      }
      const fixTime = report.fixTime ?? receivedAt;
      this.checkFixTime(fixTime, receivedAt, index);
      const event: PositionReportedV1 = {
        ...report.readings,
        eventId: randomUUID(),
        vehicleId: device.vehicleId,
        imei: report.deviceId,
        fixTime: report.fixTime ? fixTime.toISOString() : received,
        receivedAt: received,
        lat: report.lat,
        lng: report.lng,
      };
      this.checkEvent(event, index);
      return event;
    });
    await this.sink.publish(events);
    return { accepted: events.length, vehicleIds: events.map((event) => event.vehicleId) };
  }

  /**
   * A fix must fall within the positions' history (POSITIONS_RETENTION_DAYS: an older one would be
   * deleted by the next retention run, or land in no partition) and not too far ahead of the receive
   * time (a tracker with a wrong clock).
   */
  private checkFixTime(fixTime: Date, receivedAt: Date, index: number): void {
    const time = fixTime.getTime();
    if (time > receivedAt.getTime() + this.config.maxFutureSkewSeconds * 1000) {
      throw new RejectedReport('invalid', index, 'timestamp', `${fixTime.toISOString()} is in the future`);
    }
    if (time < receivedAt.getTime() - this.config.retentionDays * 86_400_000) {
      throw new RejectedReport(
        'invalid',
        index,
        'timestamp',
        `${fixTime.toISOString()} is older than the position history kept (${this.config.retentionDays} days)`,
      );
    }
  }

  /**
   * The topic's own check, before the event joins a coalesced send: an event the broker would refuse
   * must be this report's 400, never a failure of the send that other devices' reports share.
   */
  private checkEvent(event: PositionReportedV1, index: number): void {
    const [problem] = checkPositionReported(event as unknown as Record<string, unknown>).problems;
    if (problem !== undefined) {
      const field = problem.slice(0, problem.indexOf(':'));
      throw new RejectedReport('invalid', index, field, problem.slice(field.length + 2));
    }
  }
}
