import { DatabaseModule } from '@fleet/platform';
import { Module } from '@nestjs/common';
import { DeviceDirectory } from './device-sessions/device-directory';
import { VehicleSnapshotsConsumer } from './device-sessions/vehicle-snapshots.consumer';
import { ingestSchema } from './telemetry-ingest.schema';
import { PositionBatchController } from './positions/position-batch.controller';
import { PositionIntakeService } from './positions/position-intake.service';

/** Device ingestion: normalizes tracker reports into position events keyed by vehicle. */
@Module({
  imports: [DatabaseModule.forService(ingestSchema)],
  controllers: [PositionBatchController, VehicleSnapshotsConsumer],
  providers: [DeviceDirectory, PositionIntakeService],
})
export class TelemetryIngestModule {}
