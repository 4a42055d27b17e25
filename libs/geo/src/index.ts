export * from './distance';
export * from './polyline';
export * from './geocoding';
