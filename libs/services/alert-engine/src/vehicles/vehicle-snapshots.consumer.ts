import { ServiceNames, Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import { ConsumeEvents, EventBatch } from '@fleet/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AlertVehicles } from './alert-vehicles';

@Controller()
export class VehicleSnapshotsConsumer {
  constructor(private readonly vehicles: AlertVehicles) {}

  @ConsumeEvents(Topics.vehicleSnapshots, { group: ServiceNames.alertEngine })
  async onVehicleSnapshots(@Payload() batch: EventBatch<VehicleSnapshotV1>): Promise<void> {
    await this.vehicles.apply(batch.events.map((event) => event.payload));
  }
}
