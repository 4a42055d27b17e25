import { EnvReader } from '@fleet/platform';

/** Settings of command-gateway beyond the platform's (README, section Configuration; docs/commands.md). */
export interface CommandGatewayConfig {
  /** COMMAND_TTL_SECONDS: a command not answered within this time after it was accepted is `expired`. */
  ttlSeconds: number;
}

export const COMMAND_GATEWAY_CONFIG = Symbol('COMMAND_GATEWAY_CONFIG');

export function readCommandGatewayConfig(env: EnvReader): CommandGatewayConfig {
  return { ttlSeconds: env.int('COMMAND_TTL_SECONDS', 300, { min: 5, max: 7 * 24 * 3600 }) };
}
