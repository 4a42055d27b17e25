import { AddressResolver } from '@fleet/geo';
import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { ALERT_ENGINE_CONFIG, AlertEngineConfig } from './alert-engine.config';
import { alertsSchema } from './alert-engine.schema';
import { AlertEvaluator } from './engine/alert-evaluator';
import { AlertEvaluatorQueries } from './engine/alert-evaluator.queries';
import { PositionsConsumer } from './engine/positions.consumer';
import { RuleSets } from './engine/rule-sets';
import { RuleSetQueries } from './engine/rule-sets.queries';
import { recordPartitions } from './records/record-partitions';
import { AlertVehicles } from './vehicles/alert-vehicles';
import { AlertVehicleQueries } from './vehicles/alert-vehicles.queries';
import { VehicleSnapshotsConsumer } from './vehicles/vehicle-snapshots.consumer';
import { AlertAccess } from './common/alert-access';
import { AlertConfigurationsService } from './configurations/alert-configurations.service';
import { ConfigurationManagementController } from './configurations/configuration-management.controller';
import { ConfigurationsController } from './configurations/configurations.controller';
import { GeofencesController } from './geofences/geofences.controller';
import { GeofencesService } from './geofences/geofences.service';
import { AlertRecordsController } from './records/alert-records.controller';
import { AlertRecordQueries } from './records/alert-records.queries';
import { AlertRecordsService } from './records/alert-records.service';
import { LegacyAlertRecordsController } from './records/legacy-alert-records.controller';
import { ReadStatusController } from './records/read-status.controller';

/** The HTTP side: configurations, geofences and alert records, V2 and V1 (docs/alerts.md, Routes). */
const routeControllers = [
  ConfigurationsController,
  ConfigurationManagementController,
  GeofencesController,
  AlertRecordsController,
  ReadStatusController,
  LegacyAlertRecordsController,
];
const routeProviders = [
  AlertAccess,
  AlertConfigurationsService,
  GeofencesService,
  AlertRecordQueries,
  AlertRecordsService,
];

/**
 * Alert rules evaluated on the position stream, and what clients manage and read of them. One folder
 * per feature: `configurations/` and `geofences/` (management routes), `engine/` (the rules, their
 * per-vehicle state and the positions consumer), `records/` (alert records, read state, V1 and V2
 * routes), `vehicles/` (the projection of vehicle snapshots).
 */
@Module({})
export class AlertEngineModule {
  static forRoot(config: AlertEngineConfig): DynamicModule {
    return {
      module: AlertEngineModule,
      imports: [DatabaseModule.forService(alertsSchema)],
      controllers: [VehicleSnapshotsConsumer, PositionsConsumer, ...routeControllers],
      providers: [
        { provide: ALERT_ENGINE_CONFIG, useValue: config },
        ...routeProviders,
        AlertVehicleQueries,
        AlertVehicles,
        RuleSetQueries,
        RuleSets,
        AlertEvaluatorQueries,
        AlertEvaluator,
        recordPartitions,
        {
          // The address of each record (docs/geocoding.md): a failed lookup gives none, never an error.
          provide: AddressResolver,
          useFactory: () => {
            const logger = new Logger(AddressResolver.name);
            return new AddressResolver(config.geocoder, (error, at) =>
              logger.warn({ msg: 'reverse geocoding failed', err: error, at }),
            );
          },
        },
      ],
      // The demo seeding creates geofences and configurations through these (app.get).
      exports: [GeofencesService, AlertConfigurationsService, AlertVehicles],
    };
  }
}
