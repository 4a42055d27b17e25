export * from './alert-conditions';
export * from './device-commands';
export * from './fleet-simulator';
export * from './osmand-query';
export * from './osmand-sender';
export * from './random';
export * from './rest-history';
export * from './road-network';
export * from './simulated-report';
export * from './simulated-vehicle';
export { ENGINE_CODE_CLEARED_AFTER_S, ENGINE_CODES } from './engine-codes';
export type { IncidentKind } from './incident-schedule';
export { fleetTraits, NO_TRAITS, type VehicleTraits } from './vehicle-traits';
export * from './vehicle-battery';
export { TeltonikaDevice, type TeltonikaDeviceOptions } from './teltonika-device';
export { Gt06Device, type Gt06DeviceOptions } from './gt06-device';
export {
  trackerProtocols,
  trackerSender,
  type CommandHandler,
  type TrackerEndpoints,
  type TrackerProtocol,
  type TrackerSender,
} from './tracker-sender';
export { gt06CommandOf, gt06FixOf, teltonikaCommandOf, teltonikaRecordOf } from './tracker-frames';
export * from './demo/demo-tenant';
export * from './demo/demo-alerts';
