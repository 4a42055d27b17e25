/** webhook-dispatcher's test fixtures (`@fleet/webhook-dispatcher-service-testing`). */
export * from './webhook-dispatcher-fixtures';
