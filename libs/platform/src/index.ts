/**
 * What services and apps build on: configuration, logging, health, persistence and the outbox, the
 * messaging API (publish, consume), the HTTP bootstrap and the request pipeline. The transports
 * behind the messaging API (Kafka, the in-process broker, delivery and dead-lettering, topic
 * provisioning) are `@fleet/platform-transport`, for the platform's own wiring, tools and tests.
 */
export * from './config/address-block';
export * from './config/env-reader';
export * from './config/service-config';
export * from './config/service-config.token';
export * from './logging/logger';
export * from './tracing/trace-context';
export * from './health/health.registry';
export * from './health/health.module';
export * from './metrics/fleet-metrics';
export * from './metrics/metrics.module';
export * from './metrics/http-metrics';
export * from './persistence/service-schema';
export * from './persistence/database.module';
export * from './persistence/connection-retry';
export * from './persistence/migrate-cli';
export * from './persistence/monthly-partitions';
export * from './persistence/delete-in-batches';
export * from './persistence/pg-channel-listener';
export * from './persistence/projection-wait';
export * from './persistence/array-literal';
export * from './persistence/outbox/outbox';
export * from './persistence/outbox/outbox.schema';
export * from './persistence/outbox/migrations/1700000000000-create-outbox';
export * from './messaging/message';
export * from './messaging/consume-events.decorator';
export * from './messaging/batch-coalescer';
export * from './messaging/messaging.module';
export * from './platform.module';
export * from './http/validation';
export * from './http/inputs';
export * from './http/query-or-body';
export * from './http/create-service-app';
export * from './http/run-service';
export * from './rate-limit/rate-limit';
export * from './rate-limit/memory-rate-limiter';
export * from './rate-limit/redis-rate-limiter';
export * from './rate-limit/failure-backoff';
export * from './rate-limit/memory-failure-backoff';
export * from './rate-limit/redis-failure-backoff';
export * from './auth/principal';
export * from './auth/company-directory';
export * from './projections/snapshots';
export * from './auth/route-metadata';
export * from './auth/request-pipeline.guard';
export * from './auth/jwt-key-id';
export { bearerTokenOf } from './auth/jwt.strategy';
export { tokenExpiryOf } from './auth/verified-tokens';
export * from './http/pagination';
export * from './rate-limit/rate-limiter.module';
export * from './http/openapi';
export * from './http/console';
export * from './runtime/v8-flags';
export * from './runtime/exit-codes';
export * from './runtime/lifecycle-config';
export * from './runtime/dependency-check';
export * from './runtime/periodic-task';
