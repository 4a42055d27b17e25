import { createSecretKey } from 'node:crypto';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { ServiceConfig } from '../config/service-config';
import { SERVICE_CONFIG } from '../config/service-config.token';
import { Principal, principalOf } from './principal';

/**
 * `Bearer`, one space, one token of JWT characters (RFC 6750's b64token), nothing else: `Bearer  t`,
 * `Bearer<TAB>t` and `Bearer t extra` carry no token. The scheme's case is free (RFC 7235).
 */
const BEARER = /^bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/** How a request carries its token (`Authorization: Bearer <token>`), for the strategy and the pipeline's cache. */
export function bearerTokenOf(request: unknown): string | null {
  const header = (request as { headers?: Record<string, unknown> }).headers?.authorization;
  if (typeof header !== 'string') return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * Bearer tokens: HS256 only (so `alg: none` and algorithm-confusion tokens fail), signature and
 * expiry checked, `exp` and `iat` required, claims of our format required.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(SERVICE_CONFIG) config: ServiceConfig) {
    super({
      jwtFromRequest: bearerTokenOf,
      // A KeyObject made once: given a string, jsonwebtoken first tries (and fails) to parse it as a
      // public key on every request, which cost more than the rest of the verification.
      secretOrKey: createSecretKey(Buffer.from(config.auth.jwtSecret)) as unknown as string,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  validate(claims: Record<string, unknown>): Principal {
    // jsonwebtoken checks `exp` only when it is there: a token without one would never expire.
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number') throw new UnauthorizedException();
    const principal = principalOf(claims);
    if (!principal) throw new UnauthorizedException();
    return principal;
  }
}
