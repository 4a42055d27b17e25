import { DatabaseModule } from '@fleet/platform';
import { Module } from '@nestjs/common';
import { PositionHistory } from './positions/position-history';
import { PositionsConsumer } from './positions/positions.consumer';
import { querySchema } from './query-api.schema';
import { VehicleRegistry } from './vehicles/vehicle-registry.service';

/** Read side of the platform: projections of positions and registries, served over V2 and V1. */
@Module({
  imports: [DatabaseModule.forService(querySchema)],
  controllers: [PositionsConsumer],
  providers: [PositionHistory, VehicleRegistry],
  exports: [VehicleRegistry],
})
export class QueryApiModule {}
