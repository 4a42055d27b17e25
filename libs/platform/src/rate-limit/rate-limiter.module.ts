import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimitConfig } from '../config/service-config';
import { HealthRegistry } from '../health/health.registry';
import { FailureBackoff } from './failure-backoff';
import { MemoryFailureBackoff } from './memory-failure-backoff';
import { MemoryRateLimiter } from './memory-rate-limiter';
import { RateLimiter } from './rate-limit';
import { RedisFailureBackoff } from './redis-failure-backoff';
import { RedisRateLimiter } from './redis-rate-limiter';

const RATE_LIMIT_CONFIG = Symbol('RATE_LIMIT_CONFIG');

/** The Redis connection of the shared counters: connected before traffic, part of readiness. */
@Injectable()
class RateLimitRedis implements OnModuleInit, OnApplicationShutdown {
  readonly client: Redis;

  constructor(@Inject(RATE_LIMIT_CONFIG) config: RateLimitConfig, health: HealthRegistry) {
    // A Redis that hangs must not hang requests: a command that takes longer fails (see the guard).
    this.client = new Redis(config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: config.redisTimeoutMs,
    });
    health.register({ name: 'redis', check: async () => void (await this.client.ping()) });
  }

  async onModuleInit(): Promise<void> {
    await this.client.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/**
 * Provides the {@link RateLimiter} and the {@link FailureBackoff} counters of the configured store,
 * both on the one Redis connection in the distributed mode.
 */
@Global()
@Module({})
export class RateLimiterModule {
  static forRoot(config: RateLimitConfig): DynamicModule {
    const providers =
      config.store === 'redis'
        ? [
            { provide: RATE_LIMIT_CONFIG, useValue: config },
            RateLimitRedis,
            {
              provide: RateLimiter,
              inject: [RateLimitRedis],
              useFactory: (redis: RateLimitRedis) =>
                new RedisRateLimiter(redis.client, { keyPrefix: config.keyPrefix }),
            },
            {
              provide: FailureBackoff,
              inject: [RateLimitRedis],
              useFactory: (redis: RateLimitRedis) =>
                new RedisFailureBackoff(redis.client, { keyPrefix: config.keyPrefix }),
            },
          ]
        : [
            { provide: RateLimiter, useFactory: () => new MemoryRateLimiter() },
            { provide: FailureBackoff, useFactory: () => new MemoryFailureBackoff() },
          ];
    return { module: RateLimiterModule, providers, exports: [RateLimiter, FailureBackoff] };
  }
}
