import { ServiceSchema } from '@fleet/platform';
import { INGEST_SCHEMA } from './telemetry-ingest.schema.constants';
import { DeviceCommand } from './commands/device-command.entity';
import { DeviceSession } from './device-sessions/device-session.entity';
import { DeviceSetting } from './device-settings/device-setting.entity';
import { CreateDeviceSessions1763800000000 } from './migrations/1763800000000-create-device-sessions';
import { DeviceSessionCompanies1764100000000 } from './migrations/1764100000000-device-session-companies';
import { CreateDeviceCommands1764900000000 } from './migrations/1764900000000-create-device-commands';
import { CreateDeviceSettings1765100000000 } from './migrations/1765100000000-create-device-settings';
import { CreateRawFrames1765200000000 } from './migrations/1765200000000-create-raw-frames';
import { DeviceTrust1765600000000 } from './migrations/1765600000000-device-trust';
import { VehicleTrackRow } from './positions/vehicle-track.entity';
import { FrameReplay } from './raw-frames/frame-replay.entity';
import { RawFrameChunk } from './raw-frames/raw-frame-chunk.entity';

export { INGEST_SCHEMA } from './telemetry-ingest.schema.constants';

/** Tables owned by telemetry-ingest. */
export const ingestSchema: ServiceSchema = {
  schema: INGEST_SCHEMA,
  entities: [DeviceSession, DeviceCommand, DeviceSetting, RawFrameChunk, FrameReplay, VehicleTrackRow],
  migrations: [
    CreateDeviceSessions1763800000000,
    DeviceSessionCompanies1764100000000,
    CreateDeviceCommands1764900000000,
    CreateDeviceSettings1765100000000,
    CreateRawFrames1765200000000,
    DeviceTrust1765600000000,
  ],
};
