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
   * Fixes further than this ahead of their arrival are refused as `future` (INGEST_CLOCK_SKEW_SECONDS: a
   * tracker with a wrong clock). One within it is stored with the time the device reported, and its
   * consumers rank it at its arrival, so it holds no state (docs/trackers.md, "Dirty data").
   */
  maxFutureSkewSeconds: number;
  /** A fix implying a faster drive than this from the vehicle's last accepted fix is a GPS glitch. */
  maxPlausibleSpeedKmh: number;
  /** Fixes older than the position history kept (POSITIONS_RETENTION_DAYS, as query-api reads it) are refused. */
  retentionDays: number;
  /**
   * Unknown identifiers one source address may name a minute on each protocol before its unknown
   * identifiers are refused for the rest of it (known devices are always served: docs/trackers.md).
   */
  unknownDevicesPerMinute: Record<ThrottledProtocol, number>;
  /**
   * How long (s, by arrival) a track that began anew (a first fix, a re-anchoring) must be continued
   * without a conflicting fix before a fix continuing it proves a credential-less session (F1).
   */
  trackSettleSeconds: number;
  /** How often the dirty-data filter's changed tracks are checkpointed to PostgreSQL. */
  trackCheckpointSeconds: number;
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

/** The tracker protocols whose ports name devices by an identifier an address could guess. */
export const throttledProtocols = ['osmand', 'teltonika', 'gt06'] as const;
export type ThrottledProtocol = (typeof throttledProtocols)[number];

/**
 * INGEST_UNKNOWN_DEVICES_PER_MINUTE for every protocol, or INGEST_<PROTOCOL>_UNKNOWN_DEVICES_PER_MINUTE
 * for one (a fleet of one brand behind a carrier's NAT raises its own protocol's allowance).
 */
function readUnknownDeviceAllowances(env: EnvReader): Record<ThrottledProtocol, number> {
  const fallback = env.int('INGEST_UNKNOWN_DEVICES_PER_MINUTE', 20, { min: 1 });
  const allowances = {} as Record<ThrottledProtocol, number>;
  for (const protocol of throttledProtocols) {
    const name = `INGEST_${protocol.toUpperCase()}_UNKNOWN_DEVICES_PER_MINUTE`;
    allowances[protocol] = env.int(name, fallback, { min: 1 });
  }
  return allowances;
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
    maxFutureSkewSeconds: readClockSkewSeconds(env),
    maxPlausibleSpeedKmh: env.int('INGEST_MAX_PLAUSIBLE_SPEED_KMH', 300, { min: 50, max: 2_000 }),
    retentionDays: env.int('POSITIONS_RETENTION_DAYS', 365, { min: 1 }),
    unknownDevicesPerMinute: readUnknownDeviceAllowances(env),
    trackSettleSeconds: env.int('INGEST_TRACK_SETTLE_SECONDS', 1_800, { min: 0, max: 86_400 }),
    trackCheckpointSeconds: env.int('INGEST_TRACK_CHECKPOINT_SECONDS', 30, { min: 1, max: 600 }),
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

/**
 * INGEST_CLOCK_SKEW_SECONDS (default 30). It replaced INGEST_MAX_FUTURE_SECONDS (issue 54), which is
 * not read any more: a deployment that still sets it is told so at boot rather than silently given
 * another limit.
 */
function readClockSkewSeconds(env: EnvReader): number {
  if (env.optionalString('INGEST_MAX_FUTURE_SECONDS') !== undefined) {
    env.problem(
      'INGEST_MAX_FUTURE_SECONDS was replaced by INGEST_CLOCK_SKEW_SECONDS (default 30): set that instead',
    );
  }
  return env.int('INGEST_CLOCK_SKEW_SECONDS', 30, { min: 0, max: 3_600 });
}

function readSourceNetworks(env: EnvReader): SourceNetworks {
  try {
    return SourceNetworks.parse(env.list('INGEST_DEVICE_ALLOWED_NETWORKS', []));
  } catch (error) {
    env.problem(`INGEST_DEVICE_ALLOWED_NETWORKS: ${(error as Error).message}`);
    return SourceNetworks.parse([]);
  }
}
