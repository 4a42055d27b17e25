/**
 * Permissions an API key can be limited to (the token's `Actions` claim). A key without an action
 * list may do everything its company may, except the explicit actions; a route names the action it
 * requires.
 */
export const Actions = {
  readCompanies: 'companies:read',
  readVehicles: 'vehicles:read',
  sendCommands: 'commands:send',
  readAlerts: 'alerts:read',
  writeAlerts: 'alerts:write',
  manageWebhooks: 'webhooks:manage',
  readInsights: 'insights:read',
  /** Report positions through the integrators' batch endpoint: explicit, see {@link explicitActions}. */
  writePositions: 'positions:write',
  /**
   * Read and change a vehicle's tracker settings (device secret, pinned networks, command profile,
   * clock offset; docs/device-settings.md): explicit, see {@link explicitActions}.
   */
  manageDevices: 'devices:manage',
} as const;

export type Action = (typeof Actions)[keyof typeof Actions];

export const allActions: readonly Action[] = Object.values(Actions);

/**
 * Actions a token has only when its `Actions` claim lists them: a key made before such an action
 * existed, or without an action list, must not gain it silently. Writing positions for a company's
 * vehicles is one: an integration that reads must not be able to forge a fleet's history. Managing
 * devices is another: a new secret or a wrong network cuts a tracker off, and clearing the secret
 * opens its vehicle's commands to whoever knows the IMEI.
 */
export const explicitActions: readonly Action[] = [Actions.writePositions, Actions.manageDevices];

/** Whether a token with the `Actions` claim `granted` (undefined: no claim) may perform `action`. */
export function tokenMayPerform(granted: readonly string[] | undefined, action: string): boolean {
  if (granted !== undefined) return granted.includes(action);
  return !(explicitActions as readonly string[]).includes(action);
}
