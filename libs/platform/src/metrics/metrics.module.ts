import { DynamicModule, Global, Module } from '@nestjs/common';
import { FleetMetrics } from './fleet-metrics';
import { MetricsController } from './metrics.controller';

/** One {@link FleetMetrics} per app instance, for every module to record into, and `GET /metrics`. */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(service: string): DynamicModule {
    return {
      module: MetricsModule,
      controllers: [MetricsController],
      providers: [{ provide: FleetMetrics, useFactory: () => new FleetMetrics(service) }],
      exports: [FleetMetrics],
    };
  }
}
