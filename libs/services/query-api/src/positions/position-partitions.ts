import { monthlyPartitionsProvider } from '@fleet/platform';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { QUERY_SCHEMA } from '../query-api.schema.constants';

/**
 * Keeps the monthly partitions of position history ahead of time and drops the ones past retention
 * (`POSITIONS_RETENTION_DAYS`), at start and every hour, with the platform's MonthlyPartitions.
 */
export const positionPartitions = monthlyPartitionsProvider<QueryApiConfig>(
  'PositionPartitions',
  QUERY_SCHEMA,
  QUERY_API_CONFIG,
  (config) => ({
    table: 'positions',
    timeColumn: 'fix_time',
    retentionDays: config.positions.retentionDays,
    monthsAhead: config.positions.partitionMonthsAhead,
  }),
);
