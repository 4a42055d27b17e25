import { ServiceNames, Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeviceDirectory } from './device-directory';

@Controller()
export class VehicleSnapshotsConsumer {
  constructor(private readonly directory: DeviceDirectory) {}

  @ConsumeEvents(Topics.vehicleSnapshots, { group: ServiceNames.telemetryIngest })
  async onVehicleSnapshots(@Payload() batch: EventBatch<VehicleSnapshotV1>): Promise<void> {
    await this.directory.apply(batch.events.map((event) => event.payload));
  }
}
