import { PositionReportedV1 } from '@fleet/contracts';
import { EnvReader } from '@fleet/platform';
import { DeviceSettingsCache } from '../device-settings/device-settings.cache';
import { readTelemetryIngestConfig, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { PositionIntakeService } from './position-intake.service';
import { PositionSink } from './position-sink';

/**
 * The intake with a sink that keeps what it was given, and no clock offset for any device; its settings
 * are the defaults with `env` over them.
 */
function intake(env: Record<string, string> = {}, directory = {} as DeviceDirectory) {
  const published: PositionReportedV1[] = [];
  const sink = { publish: async (events: PositionReportedV1[]) => void published.push(...events) };
  const config = readTelemetryIngestConfig(new EnvReader({ POSITIONS_RETENTION_DAYS: '90', ...env }));
  const settings = { of: async () => ({ clockOffsetSeconds: 0 }), ofMany: async () => new Map() };
  const service = new PositionIntakeService(
    directory,
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

describe('PositionIntakeService: fixes ahead of their arrival (INGEST_CLOCK_SKEW_SECONDS)', () => {
  const receivedAt = new Date('2026-03-01T10:00:00.000Z');
  const ahead = (seconds: number) => ({
    deviceId: '356307042441013',
    fixTime: new Date(receivedAt.getTime() + seconds * 1_000),
    lat: 52.52,
    lng: 13.405,
    valid: true,
    readings: { satellites: 9 },
  });

  it('allows 30 s by default, and refuses the old setting by name', () => {
    const env = new EnvReader({});
    expect(readTelemetryIngestConfig(env).maxFutureSkewSeconds).toBe(30);
    env.assertValid();
    const old = new EnvReader({ INGEST_MAX_FUTURE_SECONDS: '300' });
    readTelemetryIngestConfig(old);
    expect(() => old.assertValid()).toThrow(
      /INGEST_MAX_FUTURE_SECONDS was replaced by INGEST_CLOCK_SKEW_SECONDS/,
    );
  });

  it('refuses a tracker fix 31 s ahead as future, and stores one 29 s ahead with the time it reported', async () => {
    const { service, published } = intake();
    const outcome = await service.acceptFromDevice(7, [ahead(31), ahead(29)], 'teltonika', receivedAt);
    expect(outcome).toMatchObject({ accepted: 1, refused: { future: 1 }, published: [false, true] });
    expect(published.map((event) => [event.fixTime, event.receivedAt])).toEqual([
      ['2026-03-01T10:00:29.000Z', '2026-03-01T10:00:00.000Z'],
    ]);
  });

  it('answers a single report 31 s ahead with a `future` refusal naming the timestamp', async () => {
    const directory = { resolve: async () => new Map([['356307042441013', { vehicleId: 7 }]]) };
    const { service, published } = intake({}, directory as unknown as DeviceDirectory);
    await expect(service.accept([ahead(31)], { protocol: 'osmand', receivedAt })).rejects.toMatchObject({
      name: 'RejectedReport',
      reason: 'future',
      field: 'timestamp',
      message: '2026-03-01T10:00:31.000Z is in the future (more than 30 s ahead)',
    });
    expect(published).toEqual([]);
    expect((await service.accept([ahead(29)], { protocol: 'osmand', receivedAt })).accepted).toBe(1);
    expect(published.map((event) => event.fixTime)).toEqual(['2026-03-01T10:00:29.000Z']);
  });

  it('follows INGEST_CLOCK_SKEW_SECONDS', async () => {
    const { service } = intake({ INGEST_CLOCK_SKEW_SECONDS: '0' });
    const outcome = await service.acceptFromDevice(7, [ahead(1), ahead(0)], 'teltonika', receivedAt);
    expect(outcome).toMatchObject({ accepted: 1, refused: { future: 1 } });
  });
});
