export * from './command-gateway.module';
export * from './command-gateway.config';
export * from './command-gateway.schema';
export * from './command-gateway.schema.constants';
export * from './commands/command-log-retention';
