import { DatabaseModule } from '@fleet/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { ALERT_ENGINE_CONFIG, AlertEngineConfig } from './alert-engine.config';
import { alertsSchema } from './alert-engine.schema';

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
      controllers: [],
      providers: [{ provide: ALERT_ENGINE_CONFIG, useValue: config }],
    };
  }
}
