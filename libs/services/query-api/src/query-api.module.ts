import { AddressResolver } from '@fleet/geo';
import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { VehicleCommandsConsumer } from './commands/vehicle-commands.consumer';
import { VehicleCommands } from './commands/vehicle-commands.service';
import { VehicleAccess } from './common/vehicle-access';
import { VisibleVehicles } from './common/visible-vehicles';
import { CompanyLastPositionsController } from './last-positions/company-last-positions.controller';
import {
  BatteryHealthController,
  LegacyBatteryHealthController,
} from './insights/battery/battery-health.controller';
import { BatteryHealthQueries } from './insights/battery/battery-health.queries';
import { BatteryHealthService } from './insights/battery/battery-health.service';
import {
  EngineCodesController,
  LegacyEngineCodesController,
} from './insights/engine-codes/engine-codes.controller';
import { EngineCodesService } from './insights/engine-codes/engine-codes.service';
import { InsightProjection } from './insights/insight-projection';
import { InsightRetention } from './insights/insight-retention';
import {
  LegacySafetyScoreController,
  SafetyScoreController,
} from './insights/safety-score/safety-score.controller';
import { SafetyScoreService } from './insights/safety-score/safety-score.service';
import { LastPositionQueries } from './last-positions/last-position.queries';
import { LastPositionsService } from './last-positions/last-positions.service';
import { LegacyLastPositionsController } from './last-positions/legacy-last-positions.controller';
import { VehicleLastPositionsController } from './last-positions/vehicle-last-positions.controller';
import { LegacyNearestController } from './nearest/legacy-nearest.controller';
import { NearestController } from './nearest/nearest.controller';
import { NearestQueries } from './nearest/nearest.queries';
import { NearestService } from './nearest/nearest.service';
import { PositionViews } from './position-records/position-views';
import { LegacyPositionsController } from './positions/legacy-positions.controller';
import { PositionHistory } from './positions/position-history';
import { positionPartitions } from './positions/position-partitions';
import { PositionProjection } from './positions/position-projection';
import { PositionsController } from './positions/positions.controller';
import { PositionsConsumer } from './positions/positions.consumer';
import { LiveConsumer } from './live/live.consumer';
import { LiveController } from './live/live.controller';
import { LiveFeedService } from './live/live-feed.service';
import { LiveQueries } from './live/live.queries';
import { LiveRecords } from './live/live-records';
import { LiveTail } from './live/live-tail';
import { LiveVisibility } from './live/live-visibility';
import { StreamService } from './live/stream.service';
import { RevokedApiKeys, RevokedApiKeysConsumer } from './live/revoked-api-keys';
import { PositionsService } from './positions/positions.service';
import { QUERY_API_CONFIG, QueryApiConfig } from './query-api.config';
import { querySchema } from './query-api.schema';
import { TripsController } from './trips/trips.controller';
import { TripsService } from './trips/trips.service';
import { LegacyVehiclesController } from './vehicles/legacy-vehicles.controller';
import { VehicleRegistry } from './vehicles/vehicle-registry.service';
import { VehiclesController } from './vehicles/vehicles.controller';
import { VehiclesService } from './vehicles/vehicles.service';

/**
 * Read side of the platform: projections of positions and registries, served over V2 and V1. One
 * folder per feature (commands, last positions, nearest, positions, trips, vehicles), each with its V2 and V1
 * controllers, its service and its response DTOs; `common/` and `position-records/` hold what several
 * features share (access checks, paging, route inputs; the position record).
 */
@Module({})
export class QueryApiModule {
  static forRoot(config: QueryApiConfig): DynamicModule {
    return {
      module: QueryApiModule,
      imports: [DatabaseModule.forService(querySchema)],
      controllers: [
        PositionsConsumer,
        VehicleCommandsConsumer,
        CompanyLastPositionsController,
        NearestController,
        VehiclesController,
        VehicleLastPositionsController,
        PositionsController,
        LegacyLastPositionsController,
        LegacyPositionsController,
        LegacyNearestController,
        LegacyVehiclesController,
        TripsController,
        SafetyScoreController,
        LegacySafetyScoreController,
        BatteryHealthController,
        LegacyBatteryHealthController,
        EngineCodesController,
        LegacyEngineCodesController,
        LiveConsumer,
        LiveController,
        RevokedApiKeysConsumer,
      ],
      providers: [
        { provide: QUERY_API_CONFIG, useValue: config },
        PositionHistory,
        positionPartitions,
        PositionProjection,
        InsightProjection,
        InsightRetention,
        SafetyScoreService,
        BatteryHealthService,
        BatteryHealthQueries,
        EngineCodesService,
        PositionViews,
        {
          // Offline by default; Nominatim, cached, in production (docs/geocoding.md). A failed lookup
          // gives no address, never an error, and is logged.
          provide: AddressResolver,
          useFactory: () => {
            const logger = new Logger(AddressResolver.name);
            return new AddressResolver(config.geocoder, (error, at) =>
              logger.warn({ msg: 'reverse geocoding failed', err: error, at }),
            );
          },
        },
        VisibleVehicles,
        VehicleAccess,
        VehicleRegistry,
        VehicleCommands,
        LastPositionQueries,
        LastPositionsService,
        NearestQueries,
        NearestService,
        PositionsService,
        TripsService,
        VehiclesService,
        LiveQueries,
        LiveRecords,
        LiveVisibility,
        LiveTail,
        StreamService,
        LiveFeedService,
        RevokedApiKeys,
      ],
      exports: [VehicleRegistry],
    };
  }
}
