export * from './alert-engine.module';
export * from './alert-engine.schema';
