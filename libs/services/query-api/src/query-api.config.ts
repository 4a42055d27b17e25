import { GeocoderSettings, readGeocoderConfig } from '@fleet/geo';
import { MotionSettings, readMotionSettings } from '@fleet/motion';
import { EnvReader } from '@fleet/platform';

/** Settings of query-api beyond the platform's (README, section Configuration; docs/telemetry.md). */
export interface QueryApiConfig {
  positions: {
    /** History older than this is dropped, a whole monthly partition at a time. */
    retentionDays: number;
    /** Partitions are created this many months ahead of the current one. */
    partitionMonthsAhead: number;
  };
  /** A vehicle heard from within this many seconds is `isOnline`. */
  onlineWindowSeconds: number;
  /** The trip and motion thresholds (`TRIP_*`, `FATIGUE_REST_SECONDS`), shared with every service that applies them. */
  motion: MotionSettings;
  trips: {
    /** Static map image URL; `{encoded}` is replaced by the trip's encoded polyline (URL-encoded). */
    staticMapUrlTemplate: string;
  };
  /** GEOCODER_* (docs/geocoding.md). */
  geocoder: GeocoderSettings;
  /** The live stream and the change feed (STREAM_*, docs/stream.md). */
  live: LiveSettings;
}

export interface LiveSettings {
  /** A stream id at most this old resumes; an older one gets `event: reset`. */
  resumeHours: number;
  /** Open streams per API key (or user) at once, over all replicas. */
  maxStreamsPerKey: number;
  /** A comment (and the client's current id) is sent after this long without an event. */
  heartbeatSeconds: number;
  /** Unsent bytes a connection may hold before it gets `event: overflow` and is closed. */
  bufferBytes: number;
  /**
   * STREAM_MAX_BUFFER_KB in bytes: what the server may hold unsent for one stream (its socket's and
   * its own queue). A client already this far behind when more is to be written gets `event: reset`
   * and is closed; history is read no faster than the client takes it, in pages of at most half this.
   */
  maxBufferBytes: number;
  /** How often the stream reads new rows without a notification (a missed one, or none sent). */
  pollMs: number;
}

export const QUERY_API_CONFIG = Symbol('QUERY_API_CONFIG');

export const DEFAULT_STATIC_MAP_URL_TEMPLATE =
  'https://maps.example.invalid/staticmap?size=640x400&path=enc:{encoded}';

export function readQueryApiConfig(env: EnvReader): QueryApiConfig {
  const template = env.string('STATIC_MAP_URL_TEMPLATE', DEFAULT_STATIC_MAP_URL_TEMPLATE);
  if (!template.includes('{encoded}')) env.problem('STATIC_MAP_URL_TEMPLATE must contain {encoded}');
  return {
    positions: {
      retentionDays: env.int('POSITIONS_RETENTION_DAYS', 365, { min: 1 }),
      partitionMonthsAhead: env.int('POSITIONS_PARTITION_MONTHS_AHEAD', 2, { min: 1, max: 24 }),
    },
    onlineWindowSeconds: env.int('ONLINE_WINDOW_SECONDS', 600, { min: 1 }),
    motion: readMotionSettings(env),
    trips: { staticMapUrlTemplate: template },
    geocoder: readGeocoderConfig(env),
    live: {
      resumeHours: env.int('STREAM_RESUME_HOURS', 24, { min: 1, max: 24 * 30 }),
      maxStreamsPerKey: env.int('STREAM_MAX_PER_KEY', 10, { min: 1 }),
      heartbeatSeconds: env.int('STREAM_HEARTBEAT_SECONDS', 15, { min: 1, max: 300 }),
      bufferBytes: env.int('STREAM_BUFFER_BYTES', 1_048_576, { min: 16_384 }),
      pollMs: env.int('STREAM_POLL_MS', 1_000, { min: 50 }),
      // Below 16 KiB a single event (a position with many readings) would not fit; above 64 MiB the cap
      // no longer bounds anything a replica could hold for thousands of streams.
      maxBufferBytes: env.int('STREAM_MAX_BUFFER_KB', 256, { min: 16, max: 65_536 }) * 1024,
    },
  };
}
