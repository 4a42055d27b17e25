import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { CompanyDirectory, CompanyDirectoryConsumer } from './auth/company-directory';
import { JwtKeyCheck } from './auth/jwt-key-id';
import { JwtStrategy } from './auth/jwt.strategy';
import { RequestPipelineGuard } from './auth/request-pipeline.guard';
import { ServiceConfig } from './config/service-config';
import { SERVICE_CONFIG } from './config/service-config.token';
import { HealthModule } from './health/health.module';
import { MessagingModule } from './messaging/messaging.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimiterModule } from './rate-limit/rate-limiter.module';

/**
 * What every process gets: its validated configuration, health probes, metrics, messaging, and the request
 * pipeline (bearer tokens, company suspension, scopes, rate limits) guarding every route.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        HealthModule,
        MetricsModule.forRoot(config.service),
        MessagingModule.forRoot(config.messaging, config.database),
        RateLimiterModule.forRoot(config.rateLimits),
        PassportModule,
      ],
      controllers: [CompanyDirectoryConsumer],
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        CompanyDirectory,
        JwtStrategy,
        JwtKeyCheck,
        { provide: APP_GUARD, useClass: RequestPipelineGuard },
      ],
      exports: [SERVICE_CONFIG, CompanyDirectory],
    };
  }
}
