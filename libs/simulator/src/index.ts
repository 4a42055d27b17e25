export * from './alert-conditions';
export * from './device-commands';
export * from './fleet-simulator';
export * from './osmand-query';
export * from './osmand-sender';
export * from './random';
export * from './road-network';
export * from './simulated-vehicle';
