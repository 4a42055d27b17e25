export * from './telemetry-ingest.module';
export * from './telemetry-ingest.schema';
export * from './telemetry-ingest.config';
export { DeviceListener } from './osmand/device-listener';
export { MAX_POSITIONS_PER_BATCH } from './positions/position-batch.dto';
export { TeltonikaPort } from './teltonika/teltonika-port';
export { Gt06Port } from './gt06/gt06-port';
