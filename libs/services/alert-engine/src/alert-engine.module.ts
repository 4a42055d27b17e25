import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { ALERT_ENGINE_CONFIG, AlertEngineConfig } from './alert-engine.config';
import { alertsSchema } from './alert-engine.schema';
import { AlertAccess } from './common/alert-access';
import { AlertConfigurationsService } from './configurations/alert-configurations.service';
import { ConfigurationManagementController } from './configurations/configuration-management.controller';
import { ConfigurationsController } from './configurations/configurations.controller';
import { GeofencesController } from './geofences/geofences.controller';
import { GeofencesService } from './geofences/geofences.service';
import { AlertRecordsController } from './records/alert-records.controller';
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
const routeProviders = [AlertAccess, AlertConfigurationsService, GeofencesService, AlertRecordsService];

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
      controllers: [...routeControllers],
      providers: [{ provide: ALERT_ENGINE_CONFIG, useValue: config }, ...routeProviders],
      // The demo seeding creates geofences and configurations through these (app.get).
      exports: [GeofencesService, AlertConfigurationsService],
    };
  }
}
