export * from './messaging/topic';
export * from './messaging/codec';
export * from './events/position-reported.v1';
export * from './events/vehicle-snapshot.v1';
export * from './topics';
export * from './services';
export * from './routes/route-table';
