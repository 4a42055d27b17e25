import { ServiceName, ServiceNames } from '../services';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteOwnership {
  readonly method: HttpMethod;
  /** Path as the public interface writes it, parameters in braces: `/v2/api/vehicles/{id}/positions`. */
  readonly path: string;
  /** The one service that serves the route in the distributed mode (the embedded `fleet` app serves all). */
  readonly owner: ServiceName;
  /** A deprecated route answers with a `Sunset` header until this date, then 410. */
  readonly sunset?: string;
  /**
   * The response stays open and is written as events happen (Server-Sent Events): the edge passes it
   * on unbuffered and does not cut it with its read timeout.
   */
  readonly streaming?: boolean;
}

const { auth, telemetryIngest, queryApi, commandGateway, alertEngine, webhookDispatcher } = ServiceNames;

const route = (method: HttpMethod, path: string, owner: ServiceName): RouteOwnership => ({
  method,
  path,
  owner,
});

/**
 * Every public route and the service that owns it. The edge routing of the distributed mode
 * (Kubernetes Ingress, the compose reverse proxy) is checked against this table, and each service
 * serves exactly its own rows. A new route is added here first.
 */
export const publicRoutes: readonly RouteOwnership[] = [
  // Identity and tenancy
  route('POST', '/v2/api/authentication/token/api-key', auth),
  route('GET', '/v2/api/companies', auth),
  route('POST', '/api/Authentication/token/user', auth),
  route('POST', '/api/Authentication/token/api-key', auth),
  route('POST', '/api/GetCompanies', auth),
  route('POST', '/api/Test', auth),
  // The OpenAPI document of the whole interface and its interactive page (docs/openapi.md).
  route('GET', '/v2/api/openapi.json', auth),
  route('GET', '/v2/api/docs', auth),
  route('GET', '/v2/api/docs/{asset}', auth),
  // The web console (docs/console.md): static pages that use the public routes like any client.
  route('GET', '/console', auth),
  route('GET', '/console/', auth),
  route('GET', '/console/{asset}', auth),

  // Vehicles, positions, trips and insights
  route('GET', '/v2/api/companies/{id}/vehicles/last-position', queryApi),
  route('GET', '/v2/api/companies/{id}/vehicles/last-time-online', queryApi),
  route('GET', '/v2/api/companies/{id}/vehicles/nearest', queryApi),
  route('POST', '/v2/api/vehicles/list', queryApi),
  route('GET', '/v2/api/vehicles/info', queryApi),
  route('GET', '/v2/api/vehicles/{id}/last-position', queryApi),
  route('GET', '/v2/api/vehicles/{id}/positions', queryApi),
  route('GET', '/v2/api/vehicles/{id}/last-online', queryApi),
  route('GET', '/v2/api/vehicles/{imei}/device-ids', queryApi),
  route('GET', '/v2/api/vehicles/{id}/engine-codes', queryApi),
  route('GET', '/v2/api/replay/{id}', queryApi),
  route('GET', '/v2/api/safety-score/{id}', queryApi),
  route('GET', '/v2/api/battery-health', queryApi),
  route('POST', '/api/GetNearest', queryApi),
  route('POST', '/api/GetNearestVehicles', queryApi),
  route('POST', '/api/GetReplay', queryApi),
  route('POST', '/api/GetReplayUserTime', queryApi),
  route('GET', '/api/GetDeviceId/{imei}', queryApi),
  route('POST', '/api/GetPositionData', queryApi),
  route('POST', '/api/GetAllLastPositionData/{companyId}', queryApi),
  route('POST', '/api/GetLastPositionData', queryApi),
  route('POST', '/api/GetAllLastTimeOnline', queryApi),
  route('POST', '/api/LastTimeOnline', queryApi),
  route('POST', '/api/devices', queryApi),
  route('GET', '/api/devices/{id}/dtc-codes', queryApi),
  route('POST', '/api/GetSafetyScore', queryApi),
  route('POST', '/api/GetCompanyVehiclesBatteryHealth', queryApi),
  // Extension: the live stream and the change feed (docs/stream.md)
  { ...route('GET', '/v2/api/stream', queryApi), streaming: true },
  route('GET', '/v2/api/feed/positions', queryApi),
  route('GET', '/v2/api/feed/alerts', queryApi),

  // Commands to vehicles
  route('PUT', '/v2/api/vehicles/{id}/odometer', commandGateway),
  route('PUT', '/v2/api/vehicles/{id}/name', commandGateway),
  route('POST', '/v2/api/vehicles/{id}/ignition', commandGateway),
  route('PUT', '/v2/api/vehicles/{id}/door-lock', commandGateway),
  route('POST', '/api/SendDoorLock', commandGateway),
  route('POST', '/api/SendIgnition', commandGateway),
  route('POST', '/api/UpdateLocation', commandGateway),
  route('POST', '/api/ChangeOdometer', commandGateway),
  route('POST', '/api/SetVehicleName', commandGateway),
  // Extension: reading commands (docs/commands.md)
  route('GET', '/v2/api/commands/{commandId}', commandGateway),
  route('GET', '/v2/api/vehicles/{id}/commands', commandGateway),

  // Extension: operators' settings of a vehicle's tracker (docs/device-settings.md)
  route('GET', '/v2/api/vehicles/{id}/device-settings', telemetryIngest),
  route('PUT', '/v2/api/vehicles/{id}/device-settings', telemetryIngest),

  // Alerts
  route('GET', '/v2/api/companies/{id}/alert-records', alertEngine),
  route('GET', '/v2/api/companies/{id}/alerts', alertEngine),
  route('PUT', '/v2/api/companies/{id}/set-all-alerts-read', alertEngine),
  route('PUT', '/v2/api/alerts/{id}/{date}/update-read-status', alertEngine),
  route('POST', '/api/GetAlerts', alertEngine),
  route('POST', '/api/SetAlertAsRead', alertEngine),
  route('POST', '/api/SetAllAlertAsRead', alertEngine),
  // Extension: managing configurations and geofences (docs/alerts.md, Routes).
  route('POST', '/v2/api/companies/{id}/alerts', alertEngine),
  route('PUT', '/v2/api/companies/{id}/alerts/{alertId}', alertEngine),
  route('DELETE', '/v2/api/companies/{id}/alerts/{alertId}', alertEngine),
  route('GET', '/v2/api/companies/{id}/geofences', alertEngine),
  route('POST', '/v2/api/companies/{id}/geofences', alertEngine),
  route('PUT', '/v2/api/companies/{id}/geofences/{geofenceId}', alertEngine),
  route('DELETE', '/v2/api/companies/{id}/geofences/{geofenceId}', alertEngine),

  // Webhooks
  route('POST', '/v2/api/webhooks', webhookDispatcher),
  route('GET', '/v2/api/webhooks', webhookDispatcher),
  route('GET', '/v2/api/webhooks/{id}', webhookDispatcher),
  route('PUT', '/v2/api/webhooks/{id}', webhookDispatcher),
  route('DELETE', '/v2/api/webhooks/{id}', webhookDispatcher),
  route('POST', '/v2/api/webhooks/{id}/link-alert', webhookDispatcher),
  // Extension: the delivery log and redelivery (docs/webhooks.md)
  route('GET', '/v2/api/webhooks/{id}/deliveries', webhookDispatcher),
  route('POST', '/v2/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', webhookDispatcher),
];

function templateToRegExp(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}$`, 'i');
}

const compiled = publicRoutes.map((entry) => ({ entry, regexp: templateToRegExp(entry.path) }));

/** The route a concrete request path belongs to (templates never overlap; a unit test keeps it so). */
export function findPublicRoute(method: HttpMethod, concretePath: string): RouteOwnership | undefined {
  return compiled.find(({ entry, regexp }) => entry.method === method && regexp.test(concretePath))?.entry;
}

/** The Nest/Fastify form of a template: `/v2/api/vehicles/:id/positions`. */
export function toFrameworkPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
