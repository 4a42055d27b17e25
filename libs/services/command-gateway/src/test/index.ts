/** command-gateway's test fixtures, for the test contexts of other projects (`@fleet/command-gateway-service-testing`). */
export * from './command-gateway-fixtures';
