import { randomUUID } from 'node:crypto';
import { PositionReportedV1, Topics } from '@fleet/contracts';
import { ApiException } from '@fleet/errors';
import { EventPublisher } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { BatchPositionDto } from './position-batch.dto';

/** Turns accepted device reports into position events on the broker. */
@Injectable()
export class PositionIntakeService {
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly publisher: EventPublisher,
  ) {}

  /**
   * All or nothing: if any report names an unknown device, nothing is published. Resolves only once the
   * broker holds every event, so a 2xx to the device means the positions cannot be lost.
   */
  async accept(reports: readonly BatchPositionDto[]): Promise<{ accepted: number }> {
    const vehicles = await this.directory.resolve(reports.map((report) => report.deviceId));
    const unknown = reports.findIndex((report) => !vehicles.has(report.deviceId));
    if (unknown >= 0) {
      throw ApiException.invalidInput(
        `positions[${unknown}].deviceId: unknown device "${reports[unknown].deviceId}"`,
      );
    }
    const receivedAt = new Date().toISOString();
    const events = reports.map((report) => {
      const vehicleId = vehicles.get(report.deviceId)!;
      const payload: PositionReportedV1 = {
        eventId: randomUUID(),
        vehicleId,
        imei: report.deviceId,
        fixTime: new Date(report.timestamp).toISOString(),
        receivedAt,
        lat: report.lat,
        lng: report.lon,
        speedKmh: report.speed,
        course: report.course,
        altitudeM: report.altitude,
        ignition: report.ignition,
      };
      return { key: String(vehicleId), payload };
    });
    await this.publisher.publish(Topics.positions, events);
    return { accepted: events.length };
  }
}
