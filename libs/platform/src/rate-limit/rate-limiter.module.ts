import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
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

/**
 * The Redis connection of the shared counters. The service never depends on it to serve: when Redis
 * is unreachable, at start or later, rate limits and the credential throttle fail open (each refusal
 * to count is logged by its user), readiness shows `redis` down with status `degraded` but stays 200,
 * and ioredis reconnects in the background until Redis answers again (docs/service-lifecycle.md).
 */
@Injectable()
class RateLimitRedis implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client: Redis;
  /** Set while Redis is unreachable, so that an outage is logged once, not at every reconnect attempt. */
  private lostSince?: number;

  constructor(@Inject(RATE_LIMIT_CONFIG) config: RateLimitConfig, health: HealthRegistry) {
    const address = redisAddressOf(config.redisUrl);
    // A Redis that hangs must not hang requests: a command that takes longer fails (see the guard).
    this.client = new Redis(config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: config.redisTimeoutMs,
      // Reconnect forever, at most every 2 s: Redis coming back must be noticed without a restart.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    });
    // Without a listener ioredis prints "[ioredis] Unhandled error event" as plain text on stderr.
    this.client.on('error', (error: Error) => {
      if (this.lostSince !== undefined) return;
      this.lostSince = Date.now();
      this.logger.warn({
        msg: 'Redis unreachable (REDIS_URL): rate limits fail open until it answers',
        redis: address,
        err: error,
      });
    });
    this.client.on('ready', () => {
      if (this.lostSince === undefined) return;
      this.logger.log({ msg: 'Redis reachable again', redis: address, downMs: Date.now() - this.lostSince });
      this.lostSince = undefined;
    });
    health.register({
      name: 'redis',
      advisory: true,
      check: async () => void (await this.client.ping()),
    });
  }

  async onModuleInit(): Promise<void> {
    // Start degraded rather than not at all: the 'error' listener has said why, ioredis keeps trying.
    await this.client.connect().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }
}

/** `host:port` of a Redis URL, without its password. */
function redisAddressOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'unparsable REDIS_URL';
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
