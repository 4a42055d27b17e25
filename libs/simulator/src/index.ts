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
