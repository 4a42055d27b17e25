export * from './command-gateway.module';
export * from './command-gateway.config';
export * from './command-gateway.schema';
export * from './command-gateway.schema.constants';
export * from './commands/command-log-retention';
// The door-lock route's statements bench/commands' bare server runs without the framework (the same
// SQL, fed a pg pool).
export { CommandQueries } from './commands/commands.queries';
export { CommandVehicleQueries } from './vehicles/command-vehicles.queries';
