import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { VehicleAccess } from './access/vehicle-access';
import { AddressResolver } from './geocoding/address-resolver';
import { CompanyVehiclesController } from './http/company-vehicles.controller';
import { LegacyPositionsController } from './http/legacy-positions.controller';
import { ReplayController } from './http/replay.controller';
import { VehiclesController } from './http/vehicles.controller';
import { PositionHistory } from './positions/position-history';
import { PositionPartitions } from './positions/position-partitions';
import { PositionProjection } from './positions/position-projection';
import { PositionReader } from './positions/position-reader';
import { PositionsConsumer } from './positions/positions.consumer';
import { QUERY_API_CONFIG, QueryApiConfig } from './query-api.config';
import { querySchema } from './query-api.schema';
import { PositionViews } from './records/position-views';
import { TripReader } from './trips/trip-reader';
import { VehicleRegistry } from './vehicles/vehicle-registry.service';

/** Read side of the platform: projections of positions and registries, served over V2 and V1. */
@Module({})
export class QueryApiModule {
  static forRoot(config: QueryApiConfig): DynamicModule {
    return {
      module: QueryApiModule,
      imports: [DatabaseModule.forService(querySchema)],
      controllers: [
        PositionsConsumer,
        CompanyVehiclesController,
        VehiclesController,
        LegacyPositionsController,
        ReplayController,
      ],
      providers: [
        { provide: QUERY_API_CONFIG, useValue: config },
        PositionHistory,
        PositionPartitions,
        PositionProjection,
        PositionReader,
        PositionViews,
        TripReader,
        AddressResolver,
        VehicleAccess,
        VehicleRegistry,
      ],
      exports: [VehicleRegistry],
    };
  }
}
