export * from './auth.module';
export * from './auth.schema';
