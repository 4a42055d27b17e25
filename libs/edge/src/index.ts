export * from './edge-routing';
export * from './nginx-config';
