import { defaultDevicePort, defaultTrackerPorts } from '@fleet/contracts';
import { EnvReader } from '@fleet/platform';
import { DevicePortLimits } from './device-ports/tcp-device-port';
import { SourceNetworks } from './osmand/source-networks';

/** Settings of telemetry-ingest beyond the platform's (README, section Configuration). */
export interface TelemetryIngestConfig {
  /**
   * The tracker-facing OsmAnd listener (0 = any free port, for tests), and the source networks it
   * takes reports from (INGEST_DEVICE_ALLOWED_NETWORKS; empty: any, see docs/osmand.md).
   */
  device: { host: string; port: number; allowedNetworks: SourceNetworks };
  /**
   * The binary tracker ports (docs/trackers.md): Teltonika over TCP and UDP, GT06 over TCP, on the
   * device host, with the limits every connection is held to.
   */
  trackers: { teltonikaPort: number; gt06Port: number; limits: DevicePortLimits };
  /**
   * Fixes further than this in the future are refused (a tracker with a wrong clock): such a fix would
   * pin the last position and the alert state until its time came (docs/trackers.md, "Dirty data").
   */
  maxFutureSkewSeconds: number;
  /** A fix implying a faster drive than this from the vehicle's last accepted fix is a GPS glitch. */
  maxPlausibleSpeedKmh: number;
  /** Fixes older than the position history kept (POSITIONS_RETENTION_DAYS, as query-api reads it) are refused. */
  retentionDays: number;
  /** Unknown IMEIs one source address may name a minute before it is refused for the rest of it. */
  unknownDevicesPerMinute: number;
  /** How long an IMEI lookup is remembered (a new or removed vehicle takes effect within this time). */
  deviceCacheSeconds: number;
  /**
   * A device command handed out and not acknowledged is handed out again (same id) after this long
   * (COMMAND_RESEND_SECONDS; docs/osmand.md, "Commands (extension)").
   */
  commandResendSeconds: number;
  /** The raw frame archive (docs/raw-frames.md). */
  rawFrames: RawFramesConfig;
}

export interface RawFramesConfig {
  /** Day partitions wholly older than this are dropped (RAW_FRAMES_RETENTION_DAYS). */
  retentionDays: number;
  /** Day partitions created ahead of today (RAW_FRAMES_PARTITION_DAYS_AHEAD). */
  partitionDaysAhead: number;
  /**
   * A device's frames are compressed and written together once the first of them is this old
   * (RAW_FRAMES_CHUNK_SECONDS): longer chunks compress better and appear in listings later.
   */
  chunkSeconds: number;
  /** Frames held in memory at most, waiting to be written (RAW_FRAMES_BUFFER_MB); more are dropped, counted. */
  bufferBytes: number;
}

export const TELEMETRY_INGEST_CONFIG = Symbol('TELEMETRY_INGEST_CONFIG');

/** `deviceHost`: the tracker port's bind address when INGEST_DEVICE_HOST is not set. */
export function readTelemetryIngestConfig(
  env: EnvReader,
  defaults: { deviceHost?: string } = {},
): TelemetryIngestConfig {
  return {
    device: {
      host: env.string('INGEST_DEVICE_HOST', defaults.deviceHost ?? '0.0.0.0'),
      port: env.port('INGEST_DEVICE_PORT', defaultDevicePort),
      allowedNetworks: readSourceNetworks(env),
    },
    trackers: {
      teltonikaPort: env.port('INGEST_TELTONIKA_PORT', defaultTrackerPorts.teltonika),
      gt06Port: env.port('INGEST_GT06_PORT', defaultTrackerPorts.gt06),
      limits: {
        maxConnectionsPerAddress: env.int('INGEST_MAX_CONNECTIONS_PER_ADDRESS', 1_000, { min: 1 }),
        idleSeconds: env.int('INGEST_DEVICE_IDLE_SECONDS', 600, { min: 1 }),
        frameSeconds: env.int('INGEST_FRAME_SECONDS', 30, { min: 1 }),
        maxFrameBytes: env.int('INGEST_MAX_FRAME_BYTES', 65_536, { min: 1_024, max: 16_777_216 }),
      },
    },
    maxFutureSkewSeconds: env.int('INGEST_MAX_FUTURE_SECONDS', 300, { min: 0 }),
    maxPlausibleSpeedKmh: env.int('INGEST_MAX_PLAUSIBLE_SPEED_KMH', 300, { min: 50, max: 2_000 }),
    retentionDays: env.int('POSITIONS_RETENTION_DAYS', 365, { min: 1 }),
    unknownDevicesPerMinute: env.int('INGEST_UNKNOWN_DEVICES_PER_MINUTE', 20, { min: 1 }),
    deviceCacheSeconds: env.int('INGEST_DEVICE_CACHE_SECONDS', 5, { min: 0, max: 3600 }),
    commandResendSeconds: env.int('COMMAND_RESEND_SECONDS', 30, { min: 1, max: 86_400 }),
    rawFrames: {
      retentionDays: env.int('RAW_FRAMES_RETENTION_DAYS', 7, { min: 1, max: 3_650 }),
      partitionDaysAhead: env.int('RAW_FRAMES_PARTITION_DAYS_AHEAD', 2, { min: 1, max: 60 }),
      chunkSeconds: env.int('RAW_FRAMES_CHUNK_SECONDS', 60, { min: 1, max: 600 }),
      bufferBytes: env.int('RAW_FRAMES_BUFFER_MB', 64, { min: 1, max: 4_096 }) * 1024 * 1024,
    },
  };
}

function readSourceNetworks(env: EnvReader): SourceNetworks {
  try {
    return SourceNetworks.parse(env.list('INGEST_DEVICE_ALLOWED_NETWORKS', []));
  } catch (error) {
    env.problem(`INGEST_DEVICE_ALLOWED_NETWORKS: ${(error as Error).message}`);
    return SourceNetworks.parse([]);
  }
}
