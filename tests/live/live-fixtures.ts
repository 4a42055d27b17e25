import { randomUUID } from 'node:crypto';
import { PositionReportedV1 } from '@fleet/contracts';
import { TestVehicle } from '@fleet/testing';

const BERLIN = { lat: 52.52, lng: 13.405 };

/**
 * Position events of a vehicle, one a second from `startMs`, driving east at `speedKmh`: what
 * telemetry-ingest would publish for its reports.
 */
export function drive(
  vehicle: TestVehicle,
  startMs: number,
  count: number,
  speedKmh = 40,
): PositionReportedV1[] {
  return Array.from({ length: count }, (_, index) => ({
    eventId: randomUUID(),
    vehicleId: vehicle.id,
    imei: vehicle.imei,
    fixTime: new Date(startMs + index * 1000).toISOString(),
    receivedAt: new Date(startMs + index * 1000 + 200).toISOString(),
    lat: BERLIN.lat,
    lng: BERLIN.lng + index * 0.0001,
    speedKmh,
    course: 90,
    ignition: true,
  }));
}

/** A position's identity in a V2 position record (`deviceId` is the vehicle id): vehicle and UTC fix time. */
export const recordKey = (record: Record<string, unknown>) =>
  `${String(record.deviceId)}@${String(record.utcTime)}`;

/** The same identity for an event: the V2 record's UTC time has no offset and no `Z`. */
export const eventKey = (event: PositionReportedV1) =>
  `${event.vehicleId}@${event.fixTime.replace(/\.000Z$/, '').replace(/Z$/, '')}`;
