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
