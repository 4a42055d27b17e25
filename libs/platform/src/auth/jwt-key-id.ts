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

/**
 * Notices tokens signed with another key than this service's: the sign of an AUTH_JWT_SECRET that
 * differs from auth's, which otherwise shows only as a bare 401 on every request. Logs a warning once
 * and shows the `jwt-key` readiness check down (advisory: a client can send any `kid`, so it must not
 * take the service out of rotation). A token of this service's own key id clears it.
 */
@Injectable()
export class JwtKeyCheck {
  private readonly logger = new Logger('JwtKey');
  readonly keyId: string;
  private foreignKeyId?: string;
  private warned = false;

  constructor(@Inject(SERVICE_CONFIG) config: ServiceConfig, health: HealthRegistry) {
    this.keyId = jwtKeyIdOf(config.auth.jwtSecret);
    health.setInfo('jwtKeyId', this.keyId);
    health.register({
      name: 'jwt-key',
      advisory: true,
      check: async () => {
        if (this.foreignKeyId !== undefined) throw new Error(this.mismatchMessage(this.foreignKeyId));
      },
    });
  }

  /** A token that failed verification: if its key id is not ours, say so (once). */
  refused(token: string | null): void {
    const kid = token === null ? undefined : keyIdOfToken(token);
    if (kid === undefined || kid === this.keyId) return;
    this.foreignKeyId = kid;
    if (this.warned) return;
    this.warned = true;
    this.logger.warn({ msg: this.mismatchMessage(kid), tokenKeyId: kid, keyId: this.keyId });
  }

  /** A token that verified: if it names our key, this service and auth agree. */
  accepted(token: string | null): void {
    if (this.foreignKeyId === undefined || token === null) return;
    if (keyIdOfToken(token) === this.keyId) this.foreignKeyId = undefined;
  }

  private mismatchMessage(kid: string): string {
    return (
      `token signed by a key this service does not have (kid ${kid}, this service's ${this.keyId}): ` +
      "AUTH_JWT_SECRET differs from auth's"
    );
  }
}
