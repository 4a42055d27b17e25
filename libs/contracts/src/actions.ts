/**
 * Permissions an API key can be limited to (the token's `Actions` claim). A key without an action
 * list may do everything its company may; a route names the action it requires.
 */
export const Actions = {
  readCompanies: 'companies:read',
  readVehicles: 'vehicles:read',
  sendCommands: 'commands:send',
  readAlerts: 'alerts:read',
  writeAlerts: 'alerts:write',
  manageWebhooks: 'webhooks:manage',
  readInsights: 'insights:read',
} as const;

export type Action = (typeof Actions)[keyof typeof Actions];

export const allActions: readonly Action[] = Object.values(Actions);
