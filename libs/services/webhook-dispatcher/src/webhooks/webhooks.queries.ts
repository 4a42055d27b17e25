import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';

/** A webhook about to be stored, live and active. */
export interface NewWebhookRow {
  id: number;
  companyId: number;
  url: string;
  isGlobal: boolean;
  secretCiphertext: Buffer;
}

/** A webhook as the delivery worker reads it before each attempt (a deleted one too). */
export interface WebhookState {
  id: number;
  company_id: number;
  url: string;
  is_active: boolean;
  deleted_at: Date | null;
  secret_ciphertext: Buffer;
}

/** An alert-scoped, active, live webhook that links a configuration. */
export interface LinkedTarget {
  configuration_id: number;
  webhook_id: number;
  company_id: number;
}

/** A global, active, live webhook of a company. */
export interface GlobalTarget {
  webhook_id: number;
  company_id: number;
}

/**
 * The SQL statements of webhooks (`webhooks.webhooks`) and their links to alert configurations
 * (`webhooks.webhook_alerts`): for the management routes, and for the delivery planner and worker,
 * which read who receives an alert and where to send it. Reads and writes through the entity
 * (`Webhook`) stay in WebhooksService. Statements that run in the caller's transaction take its `manager`.
 */
@Injectable()
export class WebhookQueries {
  constructor(@InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource) {}

  /** Takes the next webhook id from its sequence (so that the secret can be sealed for it before the insert). */
  async nextId(manager: EntityManager): Promise<number> {
    const [{ id }]: { id: number }[] = await manager.query(
      `SELECT nextval(pg_get_serial_sequence('webhooks.webhooks', 'id'))::integer AS id`,
    );
    return id;
  }

  /** Stores a new webhook, active. */
  async insert(manager: EntityManager, webhook: NewWebhookRow): Promise<void> {
    await manager.query(
      `INSERT INTO webhooks.webhooks (id, company_id, url, is_active, is_global, secret_ciphertext)
       VALUES ($1, $2, $3, true, $4, $5)`,
      [webhook.id, webhook.companyId, webhook.url, webhook.isGlobal, webhook.secretCiphertext],
    );
  }

  /** Marks the webhook deleted (the row stays: its delivery log names it). */
  async softDelete(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`UPDATE webhooks.webhooks SET deleted_at = now(), updated_at = now() WHERE id = $1`, [
      id,
    ]);
  }

  /** Links one configuration to the webhook; an existing link is left as it is. */
  async link(manager: EntityManager, webhookId: number, configurationId: number): Promise<void> {
    await manager.query(
      `INSERT INTO webhooks.webhook_alerts (webhook_id, configuration_id) VALUES ($1, $2)
       ON CONFLICT DO NOTHING`,
      [webhookId, configurationId],
    );
  }

  /** Makes `ids` the webhook's links: others removed, new ones added, those kept keep their `linked_at`. */
  async replaceLinks(manager: EntityManager, webhookId: number, ids: readonly number[]): Promise<void> {
    await manager.query(
      `DELETE FROM webhooks.webhook_alerts WHERE webhook_id = $1 AND configuration_id <> ALL($2::int[])`,
      [webhookId, ids],
    );
    await manager.query(
      `INSERT INTO webhooks.webhook_alerts (webhook_id, configuration_id)
       SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
      [webhookId, ids],
    );
  }

  /**
   * The live links of each of `webhookIds`, ascending (a link whose configuration was deleted is left
   * out); a webhook without any is absent.
   */
  async liveLinksOf(manager: EntityManager, webhookIds: readonly number[]): Promise<Map<number, number[]>> {
    const links = new Map<number, number[]>();
    if (!webhookIds.length) return links;
    const rows: { webhook_id: number; configuration_id: number }[] = await manager.query(
      `SELECT link.webhook_id, link.configuration_id
       FROM webhooks.webhook_alerts link
       JOIN webhooks.alert_configurations configuration
         ON configuration.configuration_id = link.configuration_id AND NOT configuration.deleted
       WHERE link.webhook_id = ANY($1::int[])
       ORDER BY link.webhook_id, link.configuration_id`,
      [webhookIds],
    );
    for (const row of rows) {
      const list = links.get(row.webhook_id) ?? [];
      list.push(row.configuration_id);
      links.set(row.webhook_id, list);
    }
    return links;
  }

  /** The alert-scoped, active, live webhooks linking any of `configurationIds`, once per link. */
  linkedTargets(manager: EntityManager, configurationIds: readonly number[]): Promise<LinkedTarget[]> {
    return manager.query(
      `SELECT l.configuration_id, w.id AS webhook_id, w.company_id
         FROM webhooks.webhook_alerts l JOIN webhooks.webhooks w ON w.id = l.webhook_id
        WHERE l.configuration_id = ANY($1::int[])
          AND NOT w.is_global AND w.is_active AND w.deleted_at IS NULL`,
      [configurationIds],
    );
  }

  /** The global, active, live webhooks of any of `companyIds`. */
  globalTargets(manager: EntityManager, companyIds: readonly number[]): Promise<GlobalTarget[]> {
    return manager.query(
      `SELECT id AS webhook_id, company_id FROM webhooks.webhooks
        WHERE company_id = ANY($1::int[]) AND is_global AND is_active AND deleted_at IS NULL`,
      [companyIds],
    );
  }

  /** The webhooks `ids` as they are now, deleted ones included; an unknown id is absent. */
  async statesOf(ids: readonly number[]): Promise<Map<number, WebhookState>> {
    const rows: WebhookState[] = await this.dataSource.query(
      `SELECT id, company_id, url, is_active, deleted_at, secret_ciphertext FROM webhooks.webhooks
        WHERE id = ANY($1::int[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }
}
