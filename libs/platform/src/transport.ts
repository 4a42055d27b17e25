/**
 * The transports behind `@fleet/platform`'s messaging API: for tools, benchmarks and tests that
 * drive a broker directly. Services never need these: they publish with `EventPublisher` and
 * consume with `@ConsumeEvents`.
 */
export * from './messaging/delivery';
export * from './messaging/event-server';
export * from './messaging/in-process/broker-store';
export * from './messaging/in-process/in-process-broker';
export * from './messaging/in-process/postgres-broker.store';
export * from './messaging/in-process/in-process-event-server';
export * from './messaging/in-process/in-process-event-publisher';
export * from './messaging/kafka/kafka-client';
export * from './messaging/kafka/kafka-event-publisher';
export * from './messaging/kafka/kafka-event-server';
export * from './messaging/kafka/topic-provisioning';
export * from './messaging/kafka-common/topic-configs';
