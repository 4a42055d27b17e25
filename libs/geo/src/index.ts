export * from './distance';
export * from './polyline';
export * from './geocoding';
export * from './geofence';
export * from './geofence-index';
