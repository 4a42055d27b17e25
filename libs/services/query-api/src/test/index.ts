/** query-api's test fixtures, for the test contexts of other projects (`@fleet/query-api-service-testing`). */
export * from './query-api-fixtures';
