export * from './distance';
export * from './polyline';
