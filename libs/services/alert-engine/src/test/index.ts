/** alert-engine's test fixtures, for the test contexts of other projects (`@fleet/alert-engine-service-testing`). */
export * from './alert-engine-fixtures';
