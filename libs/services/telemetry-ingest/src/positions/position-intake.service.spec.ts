import { PositionReportedV1 } from '@fleet/contracts';
import { DeviceSettingsCache } from '../device-settings/device-settings.cache';
import { TelemetryIngestConfig } from '../telemetry-ingest.config';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { PositionIntakeService } from './position-intake.service';
import { PositionSink } from './position-sink';

/** The intake with a sink that keeps what it was given, and no clock offset for any device. */
function intake() {
  const published: PositionReportedV1[] = [];
  const sink = { publish: async (events: PositionReportedV1[]) => void published.push(...events) };
  const config = { maxFutureSkewSeconds: 300, maxPlausibleSpeedKmh: 300, retentionDays: 90 };
  const settings = { of: async () => ({ clockOffsetSeconds: 0 }) };
  const service = new PositionIntakeService(
    {} as DeviceDirectory,
    sink as unknown as PositionSink,
    config as TelemetryIngestConfig,
    settings as unknown as DeviceSettingsCache,
  );
  return { service, published };
}

describe('PositionIntakeService: the event of a report', () => {
  const fixTime = new Date(Date.now() - 60_000);
  const receivedAt = new Date();

  it('carries the report, its readings and the intake fields, the intake naming the protocol', async () => {
    const { service, published } = intake();
    const outcome = await service.acceptFromDevice(
      7,
      [
        {
          deviceId: '356307042441013',
          fixTime,
          lat: 52.52,
          lng: 13.405,
          valid: true,
          // A reading the protocol may not set: the intake's own value must win.
          readings: { speedKmh: 42, satellites: 9, ignition: true, protocol: 'osmand' },
        },
      ],
      'teltonika',
      receivedAt,
    );
    expect(outcome.accepted).toBe(1);
    expect(published).toHaveLength(1);
    expect(published[0]).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      vehicleId: 7,
      imei: '356307042441013',
      fixTime: fixTime.toISOString(),
      receivedAt: receivedAt.toISOString(),
      lat: 52.52,
      lng: 13.405,
      protocol: 'teltonika',
      speedKmh: 42,
      satellites: 9,
      ignition: true,
    });
  });

  it('refuses a report whose reading is invalid alone, and publishes the others of the packet', async () => {
    const { service, published } = intake();
    const report = (second: number, speedKmh: number) => ({
      deviceId: '356307042441013',
      fixTime: new Date(fixTime.getTime() + second * 1_000),
      lat: 52.52,
      lng: 13.405,
      valid: true,
      readings: { speedKmh, satellites: 9 },
    });
    const outcome = await service.acceptFromDevice(
      7,
      [report(0, -5), report(1, 40), report(2, 41)],
      'teltonika',
      receivedAt,
    );
    expect(outcome).toMatchObject({ accepted: 2, refused: { invalid: 1 } });
    expect(published.map((event) => event.speedKmh)).toEqual([40, 41]);
    // Per report of the packet, in its order, the unusable first one included.
    expect(outcome.published).toEqual([false, true, true]);
    expect(outcome.vehicleIds).toEqual([7, 7, 7]);
  });
});
