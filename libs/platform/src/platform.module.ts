import { DynamicModule, Global, Module } from '@nestjs/common';
import { ServiceConfig } from './config/service-config';
import { SERVICE_CONFIG } from './config/service-config.token';
import { HealthModule } from './health/health.module';
import { MessagingModule } from './messaging/messaging.module';

/** What every process gets: its validated configuration, health probes and messaging. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return {
      module: PlatformModule,
      imports: [HealthModule, MessagingModule.forRoot(config.messaging)],
      providers: [{ provide: SERVICE_CONFIG, useValue: config }],
      exports: [SERVICE_CONFIG],
    };
  }
}
