import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { RateLimitWindow } from '../rate-limit/rate-limit';
import { Principal } from './principal';

export const PUBLIC_ROUTE = 'fleet:public-route';
export const REQUIRED_ACTION = 'fleet:required-action';
export const RATE_LIMIT_WINDOWS = 'fleet:rate-limit-windows';

/** The route needs no bearer token (token routes, the V1 connectivity check, health probes). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/**
 * The token's `Actions` must include `action` (tokens without `Actions` may do everything but the
 * contracts' `explicitActions`).
 */
export const RequiresAction = (action: string) => SetMetadata(REQUIRED_ACTION, action);

/** Overrides the configured rate-limit windows of a route; `false` exempts it. */
export const RateLimit = (windows: readonly RateLimitWindow[] | false) =>
  SetMetadata(RATE_LIMIT_WINDOWS, windows);

/** The authenticated caller of the current request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
  if (!principal) throw new Error('CurrentPrincipal used on a public route');
  return principal;
});
