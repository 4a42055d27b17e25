export * from './telemetry-ingest.module';
export * from './telemetry-ingest.schema';
export * from './telemetry-ingest.config';
export { DeviceListener } from './osmand/device-listener';
export { MAX_POSITIONS_PER_BATCH } from './positions/position-batch.dto';
export { TeltonikaPort } from './teltonika/teltonika-port';
export { Gt06Port } from './gt06/gt06-port';
export { createDeviceSettingsAdmin, listCommandProfiles } from './device-settings/device-settings.admin';
export type { CommandProfileListing, DeviceSettingsAdmin } from './device-settings/device-settings.admin';
export type { DeviceSettingsView } from './device-settings/device-settings.model';
export type { DeviceSettingsInput } from './device-settings/device-settings.rules';
export { DeviceSettingsStore } from './device-settings/device-settings.store';
export { deviceSecretMatches } from './device-settings/device-secret';
export { DEMO_TRACKER_NETWORKS } from './device-settings/device-settings.rules';
export { RawFrameArchive } from './raw-frames/raw-frame-archive';
export { RAW_FRAME_PARTITIONS } from './raw-frames/raw-frame-partitions';
export {
  createFrameAdmin,
  DEFAULT_LIST_LIMIT,
  frameLine,
  type FrameAdmin,
  type FrameReplayStatus,
  type ListedFrame,
} from './raw-frames/frame-admin';
// The position path's per-record parts, for bench/trackers/per-record.ts.
export { PositionIntakeService } from './positions/position-intake.service';
export { teltonikaReport } from './teltonika/teltonika-readings';
