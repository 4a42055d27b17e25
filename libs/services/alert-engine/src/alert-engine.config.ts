import { GeocoderSettings, readGeocoderConfig } from '@fleet/geo';
import { EnvReader } from '@fleet/platform';

/** Settings of alert-engine beyond the platform's (README, section Configuration; docs/alerts.md). */
export interface AlertEngineConfig {
  records: {
    /** Alert records older than this are dropped, a whole monthly partition at a time. */
    retentionDays: number;
    /** Partitions are created this many months ahead of the current one. */
    partitionMonthsAhead: number;
  };
  /** GEOCODER_* (docs/geocoding.md): the address of each record. */
  geocoder: GeocoderSettings;
}

export const ALERT_ENGINE_CONFIG = Symbol('ALERT_ENGINE_CONFIG');

export function readAlertEngineConfig(env: EnvReader): AlertEngineConfig {
  return {
    records: {
      retentionDays: env.int('ALERT_RECORDS_RETENTION_DAYS', 365, { min: 1 }),
      partitionMonthsAhead: env.int('ALERT_RECORDS_PARTITION_MONTHS_AHEAD', 2, { min: 1, max: 24 }),
    },
    geocoder: readGeocoderConfig(env),
  };
}
