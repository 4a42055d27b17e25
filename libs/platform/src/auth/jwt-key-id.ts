import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ServiceConfig } from '../config/service-config';
import { SERVICE_CONFIG } from '../config/service-config.token';
import { HealthRegistry } from '../health/health.registry';

/**
 * The key id of an HS256 secret: a short hash that names the key without revealing it (a hash of a
 * secret of 32+ random characters cannot be inverted). auth puts it in the `kid` header of every token
 * it signs; every service shows its own in `/health/ready` (`info.jwtKeyId`), so two services with
 * different AUTH_JWT_SECRET values can be told apart at a glance.
 */
export function jwtKeyIdOf(secret: string): string {
  return createHash('sha256').update(`fleet-jwt-kid:${secret}`).digest('base64url').slice(0, 16);
}

/** The `kid` of a compact JWS's header; undefined when it has none or is not a JWS. */
export function keyIdOfToken(token: string): string | undefined {
  const header = token.split('.', 1)[0];
  try {
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof kid === 'string' ? kid.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
}

/** How often, at most, the warning about tokens of another key is logged again. */
const FOREIGN_KEY_WARNING_EVERY_MS = 10 * 60_000;

/** The shape of a key id this platform makes (jwtKeyIdOf); anything else in a `kid` is not logged. */
const KEY_ID_SHAPE = /^[A-Za-z0-9_-]{16}$/;

/**
 * Notices refused tokens that name another key id than this service's: the sign of an AUTH_JWT_SECRET
 * that differs from auth's, which otherwise shows only as a bare 401 on every request. It only logs a
 * warning (at most every 10 minutes). It does not touch readiness: a refused token is unverified, so
 * anybody can send one with any `kid`, and readiness must say nothing a client can write (docs/service-
 * lifecycle.md, "JWT key id"). Readiness shows this service's own key id (`info.jwtKeyId`), which the
 * operator compares with auth's.
 */
@Injectable()
export class JwtKeyCheck {
  private readonly logger = new Logger('JwtKey');
  readonly keyId: string;
  private lastWarningAt = -Infinity;

  constructor(@Inject(SERVICE_CONFIG) config: ServiceConfig, health: HealthRegistry) {
    this.keyId = jwtKeyIdOf(config.auth.jwtSecret);
    health.setInfo('jwtKeyId', this.keyId);
  }

  /** A token that failed verification: if it names a key id that is not ours, warn (now and then). */
  refused(token: string | null, now = Date.now()): void {
    const kid = token === null ? undefined : keyIdOfToken(token);
    if (kid === undefined || kid === this.keyId) return;
    if (now - this.lastWarningAt < FOREIGN_KEY_WARNING_EVERY_MS) return;
    this.lastWarningAt = now;
    this.logger.warn({
      msg:
        `a refused token names another key id than this service's (${this.keyId}): if auth's ` +
        "/health/ready shows another jwtKeyId, AUTH_JWT_SECRET differs from auth's",
      // Unverified input: logged only when it looks like one of our key ids (no log injection).
      tokenKeyId: KEY_ID_SHAPE.test(kid) ? kid : '(not a key id)',
      keyId: this.keyId,
    });
  }
}
