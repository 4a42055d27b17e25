import { EnvReader } from '@fleet/platform';

/** How failed credential attempts back off (docs/auth.md, "Throttling failed credentials"). */
export interface CredentialThrottleConfig {
  enabled: boolean;
  /** Failures of one user name from one address before its wait starts. */
  pairFreeFailures: number;
  /** Failures of one user name from all addresses; the wait holds back only addresses that failed for it. */
  userFreeFailures: number;
  /** Password failures from one address, for any user names. */
  addressFreeFailures: number;
  /** API-key failures from one address. */
  apiKeyFreeFailures: number;
  /** The first wait; it doubles with each further failure. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A counter is forgotten this long after its wait ends without a new failure. */
  forgetAfterMs: number;
}

export interface AuthServiceConfig {
  /** Lifetime of issued tokens, `expires_in` of the token response. */
  tokenLifetimeSeconds: number;
  throttle: CredentialThrottleConfig;
}

export const AUTH_SERVICE_CONFIG = Symbol('AUTH_SERVICE_CONFIG');

/** The spec's `expires_in`: about 24 hours. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_399;

/** The spec's minimum lifetime is 5 minutes; a shorter setting stops the service at boot. */
export const MIN_TOKEN_LIFETIME_SECONDS = 300;

export function readAuthServiceConfig(env: EnvReader): AuthServiceConfig {
  const baseDelayMs = env.int('AUTH_THROTTLE_BASE_DELAY_MS', 1_000, { min: 1, max: 3_600_000 });
  const maxDelaySeconds = env.int('AUTH_THROTTLE_MAX_DELAY_SECONDS', 900, { min: 1, max: 86_400 });
  if (maxDelaySeconds * 1_000 < baseDelayMs)
    env.problem('AUTH_THROTTLE_MAX_DELAY_SECONDS must not be shorter than AUTH_THROTTLE_BASE_DELAY_MS');
  return {
    tokenLifetimeSeconds: env.int('AUTH_TOKEN_LIFETIME_SECONDS', DEFAULT_TOKEN_LIFETIME_SECONDS, {
      min: MIN_TOKEN_LIFETIME_SECONDS,
    }),
    throttle: {
      enabled: env.bool('AUTH_THROTTLE_ENABLED', true),
      pairFreeFailures: env.int('AUTH_THROTTLE_FREE_FAILURES', 5, { min: 0, max: 1_000 }),
      userFreeFailures: env.int('AUTH_THROTTLE_USER_FREE_FAILURES', 10, { min: 0, max: 100_000 }),
      addressFreeFailures: env.int('AUTH_THROTTLE_ADDRESS_FREE_FAILURES', 20, { min: 0, max: 100_000 }),
      apiKeyFreeFailures: env.int('AUTH_THROTTLE_API_KEY_FREE_FAILURES', 20, { min: 0, max: 100_000 }),
      baseDelayMs,
      maxDelayMs: Math.max(maxDelaySeconds * 1_000, baseDelayMs),
      forgetAfterMs: env.int('AUTH_THROTTLE_FORGET_AFTER_SECONDS', 900, { min: 1, max: 604_800 }) * 1_000,
    },
  };
}
