export * from './distance';
