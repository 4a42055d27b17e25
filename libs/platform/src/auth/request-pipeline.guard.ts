import { tokenMayPerform } from '@fleet/contracts';
import { ApiException, CompanySuspendedException } from '@fleet/errors';
import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceConfig } from '../config/service-config';
import { SERVICE_CONFIG } from '../config/service-config.token';
import { FleetMetrics } from '../metrics/fleet-metrics';
import { RateLimitDecision, RateLimiter, rateLimitHeaders, RateLimitWindow } from '../rate-limit/rate-limit';
import { CompanyDirectory } from './company-directory';
import { JwtKeyCheck } from './jwt-key-id';
import { bearerTokenOf } from './jwt.strategy';
import { Principal } from './principal';
import { PUBLIC_ROUTE, RATE_LIMIT_WINDOWS, REQUIRED_ACTION } from './route-metadata';
import { markUnversioned } from './unversioned';
import { VerifiedTokens } from './verified-tokens';

const BearerGuard = AuthGuard('jwt');

/** At most one log line per interval about requests let through while the rate-limit store is down. */
const UNLIMITED_LOG_INTERVAL_MS = 10_000;

/**
 * The request pipeline of every authenticated route of every service, in the order the spec sets:
 * bearer token (401), company suspension (403 CompanySuspended), scope (403 INVALID_SCOPE), rate
 * limits (429, and X-RateLimit-* headers on every limited response). Registered globally, so a new
 * controller gets it by default; routes opt out with `@Public()`.
 */
@Injectable()
export class RequestPipelineGuard implements CanActivate {
  private readonly bearer = new BearerGuard();
  private readonly verified = new VerifiedTokens();
  private readonly logger = new Logger('RequestPipeline');
  /** Requests let through unlimited since the last log line about it, and when that line was written. */
  private unlimited = 0;
  private unlimitedLoggedAt = 0;

  constructor(
    private readonly reflector: Reflector,
    private readonly directory: CompanyDirectory,
    private readonly limiter: RateLimiter,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    private readonly metrics: FleetMetrics,
    private readonly keyCheck: JwtKeyCheck,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();

    const principal = await this.authenticate(context, request);

    const blocking = this.directory.blockingAncestor(principal.companyId);
    if (blocking) throw new CompanySuspendedException(blocking.name);

    const action = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_ACTION, targets);
    if (action && !tokenMayPerform(principal.actions, action)) {
      throw ApiException.invalidScope(`This token may not perform "${action}".`);
    }

    const windows =
      this.reflector.getAllAndOverride<readonly RateLimitWindow[] | false | undefined>(
        RATE_LIMIT_WINDOWS,
        targets,
      ) ?? this.windowsFor(request);
    if (windows !== false) {
      const decision = await this.consume(
        `${principal.subject}|${request.method} ${request.routeOptions.url}`,
        windows,
        String(request.id),
      );
      if (!decision) return true;
      const headers = rateLimitHeaders(decision);
      if (!decision.allowed) {
        markUnversioned(request);
        this.metrics.rateLimitRefusals.inc({ route: `${request.method} ${request.routeOptions.url}` });
        throw ApiException.rateLimited(`Rate limit of the ${decision.policy} window exceeded.`, headers);
      }
      void reply.headers(headers);
    }
    return true;
  }

  /**
   * Counts the request. If the counter store is unreachable the request is let through unlimited
   * (and logged): an outage of Redis must not become an outage of the API. See docs/auth.md.
   */
  private async consume(
    key: string,
    windows: readonly RateLimitWindow[],
    requestId: string,
  ): Promise<RateLimitDecision | undefined> {
    try {
      return await this.limiter.consume(key, windows);
    } catch (error) {
      // One line per interval, with the count, not one per request: an outage under load would
      // otherwise write thousands of identical lines a second.
      this.unlimited++;
      const now = Date.now();
      if (now - this.unlimitedLoggedAt >= UNLIMITED_LOG_INTERVAL_MS) {
        this.logger.error({
          msg: 'rate-limit store unavailable; requests not limited',
          requestsNotLimited: this.unlimited,
          err: error,
          requestId,
        });
        this.unlimited = 0;
        this.unlimitedLoggedAt = now;
      }
      return undefined;
    }
  }

  /** passport-jwt verifies a token the first time it is seen; until it expires, the same string is known. */
  private async authenticate(
    context: ExecutionContext,
    request: FastifyRequest & { user?: Principal },
  ): Promise<Principal> {
    const token = bearerTokenOf(request);
    const known = token === null ? undefined : this.verified.get(token);
    if (known) {
      request.user = known;
      return known;
    }
    try {
      await this.bearer.canActivate(context);
    } catch {
      // Missing, malformed, wrongly signed, tampered or expired: all the same to the caller. The
      // operator hears of a token signed with another key (AUTH_JWT_SECRET differs from auth's).
      this.keyCheck.refused(token);
      markUnversioned(request);
      throw ApiException.invalidCredentials('The bearer token is missing, invalid or expired.');
    }
    const principal = request.user!;
    if (token !== null) this.verified.remember(token, principal);
    return principal;
  }

  private windowsFor(request: FastifyRequest): readonly RateLimitWindow[] {
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    return this.config.rateLimits.routes[route] ?? this.config.rateLimits.defaultWindows;
  }
}
