import { EnvReader } from '@fleet/platform';
import { parseAllowedCidr } from './sending/address-policy';

/** Settings of webhook-dispatcher beyond the platform's (README, section Configuration; docs/webhooks.md). */
export interface WebhookDispatcherConfig {
  /**
   * WEBHOOK_SECRET_KEY: 32 bytes (64 hex digits or base64) that encrypt webhook secrets at rest
   * (AES-256-GCM). The embedded app generates one into its data directory.
   */
  secretKey: Buffer;
  /**
   * WEBHOOK_ALLOW_PRIVATE_CIDRS: private ranges deliveries may reach anyway (comma-separated CIDRs,
   * `127.0.0.1/32`); empty by default, so that only public unicast addresses are reached.
   */
  allowPrivateCidrs: string[];
  /** WEBHOOK_LOG_RETENTION_DAYS: finished deliveries and their attempts are kept this long. */
  logRetentionDays: number;
  /** WEBHOOK_MAX_CONCURRENCY: attempts in flight at once in one process. */
  maxConcurrency: number;
  /** WEBHOOK_MAX_PER_ENDPOINT: attempts in flight at once to one host and port, in one process. */
  maxPerEndpoint: number;
}

export const WEBHOOK_DISPATCHER_CONFIG = Symbol('WEBHOOK_DISPATCHER_CONFIG');

export function readWebhookDispatcherConfig(
  env: EnvReader,
  defaults: { secretKey?: string } = {},
): WebhookDispatcherConfig {
  const keyText = env.secret('WEBHOOK_SECRET_KEY', 32, defaults.secretKey);
  return {
    secretKey: secretKeyOf(env, keyText),
    allowPrivateCidrs: cidrsOf(env, env.list('WEBHOOK_ALLOW_PRIVATE_CIDRS', [])),
    logRetentionDays: env.int('WEBHOOK_LOG_RETENTION_DAYS', 30, { min: 1 }),
    maxConcurrency: env.int('WEBHOOK_MAX_CONCURRENCY', 256, { min: 1, max: 10_000 }),
    maxPerEndpoint: env.int('WEBHOOK_MAX_PER_ENDPOINT', 32, { min: 1, max: 1_000 }),
  };
}

/** The key's 32 bytes from 64 hex digits or base64 / base64url text; a problem report otherwise. */
function secretKeyOf(env: EnvReader, text: string | undefined): Buffer {
  // Missing: already reported by the reader.
  if (text === undefined) return Buffer.alloc(32);
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    env.problem('WEBHOOK_SECRET_KEY must be 32 bytes: 64 hex digits, or base64 of 32 bytes');
    return Buffer.alloc(32);
  }
  return key;
}

/** Every entry must be a CIDR the sender takes (`10.0.0.0/8`, `fd00::/8`); a problem report otherwise. */
function cidrsOf(env: EnvReader, entries: string[]): string[] {
  for (const entry of entries) {
    try {
      parseAllowedCidr(entry);
    } catch (error) {
      env.problem(error instanceof Error ? error.message : String(error));
    }
  }
  return entries;
}
