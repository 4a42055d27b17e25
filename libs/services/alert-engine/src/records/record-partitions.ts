import { monthlyPartitionsProvider } from '@fleet/platform';
import { ALERT_ENGINE_CONFIG, AlertEngineConfig } from '../alert-engine.config';
import { ALERTS_SCHEMA } from '../alert-engine.schema.constants';

/**
 * Keeps the monthly partitions of alert records ahead of time and drops the ones past retention
 * (`ALERT_RECORDS_RETENTION_DAYS`), at start and every hour, as query-api does for position history.
 */
export const recordPartitions = monthlyPartitionsProvider<AlertEngineConfig>(
  'RecordPartitions',
  ALERTS_SCHEMA,
  ALERT_ENGINE_CONFIG,
  (config) => ({
    table: 'records',
    timeColumn: 'utc_time',
    retentionDays: config.records.retentionDays,
    monthsAhead: config.records.partitionMonthsAhead,
  }),
);
