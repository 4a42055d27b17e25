import { EnvReader } from '@fleet/platform';

export interface AuthServiceConfig {
  /** Lifetime of issued tokens, `expires_in` of the token response. */
  tokenLifetimeSeconds: number;
}

export const AUTH_SERVICE_CONFIG = Symbol('AUTH_SERVICE_CONFIG');

/** The spec's minimum lifetime is 5 minutes; a shorter setting stops the service at boot. */
export const MIN_TOKEN_LIFETIME_SECONDS = 300;

export function readAuthServiceConfig(env: EnvReader): AuthServiceConfig {
  return {
    tokenLifetimeSeconds: env.int('AUTH_TOKEN_LIFETIME_SECONDS', 86_399, { min: MIN_TOKEN_LIFETIME_SECONDS }),
  };
}
