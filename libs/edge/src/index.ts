export * from './edge-routing';
