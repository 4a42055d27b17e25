/** auth's test fixtures, for the test contexts of other projects (`@fleet/auth-service-testing`). */
export * from './auth-fixtures';
