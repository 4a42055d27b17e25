import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { CommandNotifications } from './commands/command-notifications';
import { CommandRequestsConsumer } from './commands/command-requests.consumer';
import { DeviceCommandQueries } from './commands/device-commands.queries';
import { DeviceCommandsService } from './commands/device-commands.service';
import { ConnectedDevices } from './device-ports/connected-devices';
import { DeviceGateway } from './device-ports/device-gateway';
import { SourceThrottle } from './device-ports/source-throttle';
import { DeviceDirectory } from './device-sessions/device-directory';
import { DeviceSessionQueries } from './device-sessions/device-sessions.queries';
import { DeviceSettingsCache } from './device-settings/device-settings.cache';
import { DeviceSettingsController } from './device-settings/device-settings.controller';
import { DeviceSettingsQueries } from './device-settings/device-settings.queries';
import { DeviceSettingsService } from './device-settings/device-settings.service';
import { DeviceSettingsStore } from './device-settings/device-settings.store';
import { VehicleSnapshotsConsumer } from './device-sessions/vehicle-snapshots.consumer';
import { DeviceListener } from './osmand/device-listener';
import { PositionBatchController } from './positions/position-batch.controller';
import { PositionIntakeService } from './positions/position-intake.service';
import { PositionMetrics } from './positions/position-metrics';
import { PositionSink } from './positions/position-sink';
import { TrackCheckpoints } from './positions/track-checkpoints';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from './telemetry-ingest.config';
import { TeltonikaPort } from './teltonika/teltonika-port';
import { Gt06Port } from './gt06/gt06-port';
import { ingestSchema } from './telemetry-ingest.schema';
import { FrameReplayer } from './raw-frames/frame-replayer';
import { RawFrameQueries } from './raw-frames/frames.queries';
import { RawFrameArchive } from './raw-frames/raw-frame-archive';
import { rawFramePartitions } from './raw-frames/raw-frame-partitions';

/**
 * Device ingestion: the tracker ports (OsmAnd over HTTP, Teltonika over TCP and UDP, GT06 over TCP)
 * and the batch endpoint, normalized into position events keyed by vehicle; and device commands,
 * handed out in the OsmAnd port's answers or written on a tracker's open connection.
 */
@Module({})
export class TelemetryIngestModule {
  static forRoot(config: TelemetryIngestConfig): DynamicModule {
    return {
      module: TelemetryIngestModule,
      imports: [DatabaseModule.forService(ingestSchema)],
      controllers: [
        PositionBatchController,
        VehicleSnapshotsConsumer,
        CommandRequestsConsumer,
        DeviceSettingsController,
      ],
      providers: [
        { provide: TELEMETRY_INGEST_CONFIG, useValue: config },
        DeviceSessionQueries,
        DeviceDirectory,
        PositionSink,
        PositionIntakeService,
        TrackCheckpoints,
        PositionMetrics,
        DeviceCommandQueries,
        DeviceCommandsService,
        DeviceListener,
        DeviceSettingsService,
        DeviceSettingsQueries,
        DeviceSettingsStore,
        DeviceSettingsCache,
        SourceThrottle,
        ConnectedDevices,
        DeviceGateway,
        CommandNotifications,
        TeltonikaPort,
        Gt06Port,
        RawFrameQueries,
        RawFrameArchive,
        FrameReplayer,
        rawFramePartitions,
      ],
      exports: [DeviceListener, TeltonikaPort, Gt06Port],
    };
  }
}
