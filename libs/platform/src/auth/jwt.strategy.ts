import { createSecretKey } from 'node:crypto';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ServiceConfig } from '../config/service-config';
import { SERVICE_CONFIG } from '../config/service-config.token';
import { Principal, principalOf } from './principal';

/** How a request carries its token (`Authorization: Bearer <token>`), for the strategy and the pipeline's cache. */
export const bearerTokenOf: (request: unknown) => string | null = ExtractJwt.fromAuthHeaderAsBearerToken();

/**
 * Bearer tokens: HS256 only (so `alg: none` and algorithm-confusion tokens fail), signature and
 * expiry checked, claims of our format required.
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
    const principal = principalOf(claims);
    if (!principal) throw new UnauthorizedException();
    return principal;
  }
}
