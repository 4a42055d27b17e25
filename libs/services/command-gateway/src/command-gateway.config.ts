import { EnvReader } from '@fleet/platform';

/** Settings of command-gateway beyond the platform's (README, section Configuration; docs/commands.md). */
export interface CommandGatewayConfig {
  /** COMMAND_TTL_SECONDS: a command not answered within this time after it was accepted is `expired`. */
  ttlSeconds: number;
  /** COMMANDS_RETENTION_DAYS: finished commands (acknowledged, failed, expired) are deleted this long after. */
  retentionDays: number;
}

export const COMMAND_GATEWAY_CONFIG = Symbol('COMMAND_GATEWAY_CONFIG');

export function readCommandGatewayConfig(env: EnvReader): CommandGatewayConfig {
  return {
    ttlSeconds: env.int('COMMAND_TTL_SECONDS', 300, { min: 5, max: 7 * 24 * 3600 }),
    // At least two days: a command stays findable by its idempotency key for 24 hours.
    retentionDays: env.int('COMMANDS_RETENTION_DAYS', 90, { min: 2 }),
  };
}
