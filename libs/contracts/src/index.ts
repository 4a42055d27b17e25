// The event classes below carry class-transformer decorators, which read type metadata when a module
// loads: the polyfill comes with the contracts, so a process whose entry point did not load it first
// (the simulator, a device emulator) can use them too.
import 'reflect-metadata';
export * from './messaging/topic';
export * from './messaging/codec';
export * from './events/position-reported.v1';
export {
  checkPositionReported,
  checkReadings,
  isLatitudeValue,
  isLongitudeValue,
  isStrictInstant,
} from './events/position-reported.check';
export * from './events/vehicle-snapshot.v1';
export * from './events/company-snapshot.v1';
export * from './events/api-key-revoked.v1';
export * from './events/alert-fired.v1';
export * from './events/alert-configuration-snapshot.v1';
export * from './events/command-requested.v1';
export * from './events/command-result.v1';
export * from './events/command-status-changed.v1';
export * from './alerts/alert-types';
export * from './topics';
export * from './services';
export * from './routes/route-table';
export * from './actions';
export * from './text';
export * from './instant';
export * from './time';
export * from './openapi';
