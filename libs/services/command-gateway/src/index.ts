export * from './command-gateway.module';
export * from './command-gateway.schema';
