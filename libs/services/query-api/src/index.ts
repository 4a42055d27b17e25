export * from './query-api.module';
export * from './query-api.schema';
