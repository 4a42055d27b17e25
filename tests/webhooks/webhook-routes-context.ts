import { randomUUID } from 'node:crypto';
import { alertEngineModules } from '@fleet/alert-engine-service-testing';
import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { TestContext } from '@fleet/testing';
import { webhookDispatcherModules } from '@fleet/webhook-dispatcher-service-testing';

/** Where directly projected configurations start: far above the ids alert-engine's sequence gives a test. */
const PROJECTED_IDS_FROM = 1_000_000;

/**
 * auth, query-api, alert-engine and webhook-dispatcher in one test context: the webhook routes with
 * real tokens, real alert configurations (through alert-engine's route, reaching webhook-dispatcher's
 * projection through the outbox and the snapshot topic) and, where many or special ones are needed,
 * configurations put straight into the projection. Rate limits are raised so that tests measure
 * behaviour.
 */
export class WebhookRoutesContext extends TestContext {
  private projected = PROJECTED_IDS_FROM;

  static open(): Promise<WebhookRoutesContext> {
    return WebhookRoutesContext.start({
      modules: (reader) => [
        ...authModules(reader),
        ...queryApiModules(reader),
        ...alertEngineModules(reader),
        ...webhookDispatcherModules(reader),
      ],
      fixtures: [authFixtures, queryApiFixtures],
      env: { RATE_LIMIT_DEFAULT: 'second=100000' },
    });
  }

  /**
   * Creates an alert configuration through alert-engine's public route (types without settings:
   * 5, 8, 15, 20); webhook-dispatcher learns of it from the snapshot topic, not from this call.
   */
  async newConfiguration(companyId: number, token: string, alertTypeId = 5): Promise<number> {
    const created = await this.send('POST', `/v2/api/companies/${companyId}/alerts`, token, {
      name: `Configuration of type ${alertTypeId}`,
      alertTypeId,
    });
    if (created.statusCode !== 201) throw new Error(`configuration: ${created.statusCode} ${created.body}`);
    return created.json<{ id: number }>().id;
  }

  /**
   * Puts configurations straight into webhook-dispatcher's projection, as its snapshot consumer
   * would, with ids alert-engine never gives in a test; returns their ids.
   */
  async projectConfigurations(
    companyId: number,
    alertTypeId: number,
    count = 1,
    options: { deleted?: boolean } = {},
  ): Promise<number[]> {
    const ids = Array.from({ length: count }, () => (this.projected += 1));
    await this.database.pool.query(
      `INSERT INTO webhooks.alert_configurations (configuration_id, company_id, alert_type_id, is_active, deleted, version)
       SELECT id, $2, $3, true, $4, 1 FROM unnest($1::int[]) AS id`,
      [ids, companyId, alertTypeId, options.deleted ?? false],
    );
    return ids;
  }

  /** Marks a projected configuration deleted, as a deletion's snapshot would. */
  async deleteProjectedConfiguration(id: number): Promise<void> {
    await this.database.pool.query(
      'UPDATE webhooks.alert_configurations SET deleted = true, version = version + 1 WHERE configuration_id = $1',
      [id],
    );
  }

  /**
   * A delivery of the webhook after its first attempt, written as the dispatcher would: `pending` (its
   * second attempt due in a minute) or `delivered`; returns its id.
   */
  async insertDelivery(webhookId: number, status: 'pending' | 'delivered'): Promise<string> {
    const id = randomUUID();
    await this.database.pool.query(
      `INSERT INTO webhooks.deliveries (id, webhook_id, alert_event_id, configuration_id, alert_type_id, body, status,
         attempts, next_attempt_at, finished_at)
       VALUES ($1, $2, $3, 1, 5, '{}', $4, 1, $5, $6)`,
      [
        id,
        webhookId,
        randomUUID(),
        status,
        status === 'pending' ? new Date(Date.now() + 60_000) : null,
        status === 'pending' ? null : new Date(),
      ],
    );
    return id;
  }

  async deliveryOf(id: string) {
    const { rows } = await this.database.pool.query<{
      status: string;
      outcome: string | null;
      finished_at: Date | null;
      next_attempt_at: Date | null;
    }>('SELECT status, outcome, finished_at, next_attempt_at FROM webhooks.deliveries WHERE id = $1', [id]);
    return rows[0];
  }

  /** The webhook's row as stored: the secret's ciphertext and the soft-delete mark. */
  async storedWebhook(id: number) {
    const { rows } = await this.database.pool.query<{ secret_ciphertext: Buffer; deleted_at: Date | null }>(
      'SELECT secret_ciphertext, deleted_at FROM webhooks.webhooks WHERE id = $1',
      [id],
    );
    return rows[0];
  }
}
