import { timePartitionsProvider } from '@fleet/platform';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';

/**
 * The retention of the raw frame archive: day partitions of `ingest.raw_frames` created
 * RAW_FRAMES_PARTITION_DAYS_AHEAD ahead and dropped whole past RAW_FRAMES_RETENTION_DAYS, at start and
 * every hour, with the platform's TimePartitions (the helper that keeps position history by month).
 */
export const RAW_FRAME_PARTITIONS = 'RawFramePartitions';

export const rawFramePartitions = timePartitionsProvider<TelemetryIngestConfig>(
  RAW_FRAME_PARTITIONS,
  INGEST_SCHEMA,
  TELEMETRY_INGEST_CONFIG,
  (config) => ({
    table: 'raw_frames',
    timeColumn: 'received_at',
    unit: 'day',
    retentionDays: config.rawFrames.retentionDays,
    ahead: config.rawFrames.partitionDaysAhead,
  }),
);
