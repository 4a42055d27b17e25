export * from './webhook-dispatcher.module';
export * from './webhook-dispatcher.schema';
export * from './webhook-dispatcher.config';
export { DeliveryLogRetention } from './delivery/log-retention';
export { ConfigurationProjection } from './configurations/configuration-projection';
