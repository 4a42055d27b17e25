import { randomUUID } from 'node:crypto';
import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { AlertFiredV1, Topics } from '@fleet/contracts';
import { EventPublisher } from '@fleet/platform';
import { TestContext, TestDatabase } from '@fleet/testing';
import { webhookDispatcherModules } from '@fleet/webhook-dispatcher-service-testing';

/** A webhook as its creation answers it. */
export interface CreatedWebhook {
  id: number;
  url: string;
  secret: string;
  isGlobal: boolean;
  alertIds: number[];
}

let configurationIds = 700_000;

/**
 * auth and webhook-dispatcher in one test context: companies and tokens from auth, webhooks made
 * through the public routes, fired alerts published on `alerts.fired.v1` as alert-engine publishes
 * them, deliveries received by real HTTP receivers on 127.0.0.1 (allowed by
 * WEBHOOK_ALLOW_PRIVATE_CIDRS). Alert configurations reach the dispatcher's projection directly here,
 * as its snapshot consumer would put them (the routes' own tests cover the topic).
 */
export class WebhookDeliveryContext extends TestContext {
  static open(env: Record<string, string> = {}, database?: TestDatabase): Promise<WebhookDeliveryContext> {
    return WebhookDeliveryContext.start({
      modules: (reader) => [...authModules(reader), ...webhookDispatcherModules(reader)],
      fixtures: [authFixtures],
      env: { RATE_LIMIT_DEFAULT: 'second=100000', WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32', ...env },
      database,
    });
  }

  /** An alert configuration of `companyId` of type `alertTypeId`, as the projection would hold it. */
  async configuration(companyId: number, alertTypeId: number): Promise<number> {
    configurationIds += 1;
    await this.database.pool.query(
      `INSERT INTO webhooks.alert_configurations (configuration_id, company_id, alert_type_id, is_active, deleted, version)
       VALUES ($1, $2, $3, true, false, 1)`,
      [configurationIds, companyId, alertTypeId],
    );
    return configurationIds;
  }

  async createWebhook(
    token: string,
    input: { url: string; alertIds?: number[]; isGlobal?: boolean },
  ): Promise<CreatedWebhook> {
    const response = await this.app.inject({
      method: 'POST',
      url: '/v2/api/webhooks',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(input),
    });
    if (response.statusCode !== 201) {
      throw new Error(`creating a webhook answered ${response.statusCode}: ${response.body}`);
    }
    return response.json<CreatedWebhook>();
  }

  /** Publishes fired alerts as alert-engine does (keyed by vehicle). */
  async fire(...alerts: AlertFiredV1[]): Promise<void> {
    await this.app.get(EventPublisher).publish(
      Topics.alertsFired,
      alerts.map((alert) => ({ key: String(alert.vehicleId), payload: alert })),
    );
  }

  /** The stored deliveries of a webhook, oldest first. */
  async deliveriesOf(
    webhookId: number,
  ): Promise<
    { id: string; status: string; attempts: number; outcome: string | null; alert_event_id: string }[]
  > {
    const { rows } = await this.database.pool.query(
      `SELECT id, status, attempts, outcome, alert_event_id FROM webhooks.deliveries WHERE webhook_id = $1 ORDER BY created_at, id`,
      [webhookId],
    );
    return rows;
  }
}

/** A fired alert of a type with the catalog's data, for `companyId` (ancestors nearest first). */
export function firedAlert(
  alertTypeId: number,
  configurationId: number,
  companyId: number,
  overrides: Partial<AlertFiredV1> = {},
): AlertFiredV1 {
  return {
    eventId: randomUUID(),
    recordId: 1,
    configurationId,
    alertTypeId,
    companyId,
    ancestorCompanyIds: [],
    vehicleId: 4242,
    vehicleName: 'Van 42',
    lat: 52.52,
    lng: 13.405,
    course: 90,
    fixTime: new Date().toISOString(),
    address: {
      street: 'Unter den Linden 1',
      suburb: 'Mitte',
      state: 'Berlin',
      postcode: '10117',
      country: 'Germany',
    },
    data: dataOf(alertTypeId),
    ...overrides,
  };
}

function dataOf(alertTypeId: number): AlertFiredV1['data'] {
  switch (alertTypeId) {
    case 1:
    case 2:
      return { geofenceName: 'Depot', isExit: alertTypeId === 2 };
    case 5:
    case 8:
      return { isStarted: alertTypeId === 5 };
    case 9:
      return { voltage: 11.5, threshold: 12 };
    case 10:
      return { speed: 112.5, maxSpeed: 100 };
    default:
      return null;
  }
}
