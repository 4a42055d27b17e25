/** telemetry-ingest's test fixtures, for the test contexts of other projects (`@fleet/telemetry-ingest-service-testing`). */
export * from './telemetry-ingest-fixtures';
