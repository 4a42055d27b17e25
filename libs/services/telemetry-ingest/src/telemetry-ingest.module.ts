import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { CommandRequestsConsumer } from './commands/command-requests.consumer';
import { DeviceCommandsService } from './commands/device-commands.service';
import { DeviceDirectory } from './device-sessions/device-directory';
import { VehicleSnapshotsConsumer } from './device-sessions/vehicle-snapshots.consumer';
import { DeviceListener } from './osmand/device-listener';
import { PositionBatchController } from './positions/position-batch.controller';
import { PositionIntakeService } from './positions/position-intake.service';
import { PositionMetrics } from './positions/position-metrics';
import { PositionSink } from './positions/position-sink';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from './telemetry-ingest.config';
import { ingestSchema } from './telemetry-ingest.schema';

/**
 * Device ingestion: the OsmAnd port and the batch endpoint, normalized into position events keyed by
 * vehicle; and device commands, handed out in the OsmAnd port's answers.
 */
@Module({})
export class TelemetryIngestModule {
  static forRoot(config: TelemetryIngestConfig): DynamicModule {
    return {
      module: TelemetryIngestModule,
      imports: [DatabaseModule.forService(ingestSchema)],
      controllers: [PositionBatchController, VehicleSnapshotsConsumer, CommandRequestsConsumer],
      providers: [
        { provide: TELEMETRY_INGEST_CONFIG, useValue: config },
        DeviceDirectory,
        PositionSink,
        PositionIntakeService,
        PositionMetrics,
        DeviceCommandsService,
        DeviceListener,
      ],
      exports: [DeviceListener],
    };
  }
}
