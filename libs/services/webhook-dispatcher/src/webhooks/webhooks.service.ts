import { Counted, readWhenProjected, Slice } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, FindOptionsSelect, IsNull } from 'typeorm';
import { ConfigurationProjection, KnownConfiguration } from '../configurations/configuration-projection';
import { DeliveryQueries } from '../delivery/delivery.queries';
import { WebhookDispatcherException, WebhookDispatcherExceptionCode } from '../webhook-dispatcher.exception';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';
import { newWebhookSecret, SecretBox } from './secret-box';
import { Webhook } from './webhook.entity';
import { WebhookQueries } from './webhooks.queries';
import {
  checkLinkable,
  linkCountProblem,
  newWebhookDefinition,
  WebhookInput,
  webhookChange,
} from './webhook-rules';

/** A webhook as the routes show it. */
export interface WebhookView {
  id: number;
  companyId: number;
  url: string;
  isActive: boolean;
  isGlobal: boolean;
  /** Linked configurations that are live in the projection, ascending. */
  alertIds: number[];
  createdAt: Date;
  updatedAt: Date;
}

/** A webhook just created, with its secret in plain text: shown once, in the creation answer. */
export interface CreatedWebhook {
  webhook: WebhookView;
  secret: string;
}

/** How long a link waits for configurations the projection has not heard of yet, and how often it looks. */
const PROJECTION_WAIT_MS = 3_000;

/** Every column but the secret's ciphertext, which no route reads. */
const VIEW_COLUMNS: FindOptionsSelect<Webhook> = {
  id: true,
  companyId: true,
  url: true,
  isActive: true,
  isGlobal: true,
  createdAt: true,
  updatedAt: true,
};

/**
 * A company's webhooks: checked with webhook-rules.ts and against the projection of alert
 * configurations, stored in webhook-dispatcher's schema. Each change runs in one transaction that
 * holds the webhook's row (`FOR UPDATE`), so that two changes of one webhook, or a change and its
 * deletion, apply one after the other. Every lookup is by the token's company: another company's
 * webhook, a deleted one and an unknown id all answer 404 alike.
 */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource,
    private readonly projection: ConfigurationProjection,
    private readonly box: SecretBox,
    private readonly queries: WebhookQueries,
    private readonly deliveries: DeliveryQueries,
  ) {}

  /**
   * Creates a webhook with a new secret. The id is taken from the sequence first, so that the
   * secret's encryption is bound to it (secret-box.ts).
   */
  async create(companyId: number, input: WebhookInput): Promise<CreatedWebhook> {
    const definition = newWebhookDefinition(input);
    await this.checkConfigurations('alertIds', companyId, definition.alertIds);
    const secret = newWebhookSecret();
    const webhook = await this.dataSource.transaction(async (manager) => {
      const id = await this.queries.nextId(manager);
      await this.queries.insert(manager, {
        id,
        companyId,
        url: definition.url,
        isGlobal: definition.isGlobal,
        secretCiphertext: this.box.seal(secret, id),
      });
      await this.queries.replaceLinks(manager, id, definition.alertIds);
      return this.viewOf(manager, await this.rowOf(manager, companyId, id));
    });
    return { webhook, secret };
  }

  /** The company's live webhooks, by id. */
  async list(companyId: number, slice: Slice): Promise<Counted<WebhookView>> {
    const [rows, total] = await this.dataSource.getRepository(Webhook).findAndCount({
      select: VIEW_COLUMNS,
      where: { companyId, deletedAt: IsNull() },
      order: { id: 'ASC' },
      take: slice.limit,
      skip: slice.offset,
    });
    const links = await this.queries.liveLinksOf(
      this.dataSource.manager,
      rows.map((row) => row.id),
    );
    return { rows: rows.map((row) => viewOfRow(row, links.get(row.id) ?? [])), total };
  }

  /** One of the company's live webhooks; 404 otherwise. */
  async get(companyId: number, id: number): Promise<WebhookView> {
    return this.viewOf(this.dataSource.manager, await this.rowOf(this.dataSource.manager, companyId, id));
  }

  /**
   * Applies a PUT: fields left out keep their value, `alertIds` replaces the links. 404 before any
   * rule is looked at, so that a 422 is only ever about the caller's own webhook.
   */
  async update(companyId: number, id: number, input: WebhookInput): Promise<WebhookView> {
    const current = await this.rowOf(this.dataSource.manager, companyId, id);
    // isGlobal never changes, so the unlocked read is good enough to judge the change by.
    const change = webhookChange(current, input);
    if (change.alertIds) await this.checkConfigurations('alertIds', companyId, change.alertIds);
    return this.dataSource.transaction(async (manager) => {
      const locked = await this.rowOf(manager, companyId, id, { lock: true });
      if (change.alertIds) await this.queries.replaceLinks(manager, id, change.alertIds);
      const updated = {
        ...(change.url !== undefined ? { url: change.url } : {}),
        ...(change.isActive !== undefined ? { isActive: change.isActive } : {}),
        updatedAt: new Date(),
      };
      await manager.update(Webhook, { id }, updated);
      return this.viewOf(manager, { ...locked, ...updated });
    });
  }

  /**
   * Soft-deletes it: from now on it answers 404 everywhere and receives nothing; its pending
   * deliveries are cancelled with it (the delivery worker reads the webhook's state again before each
   * attempt, for one already under way). The row stays, because its delivery log names it. Answers
   * the webhook as it was.
   */
  async delete(companyId: number, id: number): Promise<WebhookView> {
    return this.dataSource.transaction(async (manager) => {
      const locked = await this.rowOf(manager, companyId, id, { lock: true });
      const before = await this.viewOf(manager, locked);
      await this.queries.softDelete(manager, id);
      await this.deliveries.cancelPendingOf(manager, id);
      return before;
    });
  }

  /** Links one more configuration; one already linked changes nothing (not even `updatedAt`). */
  async linkAlert(companyId: number, id: number, alertId: number): Promise<WebhookView> {
    await this.rowOf(this.dataSource.manager, companyId, id);
    await this.checkConfigurations('alertId', companyId, [alertId]);
    return this.dataSource.transaction(async (manager) => {
      const locked = await this.rowOf(manager, companyId, id, { lock: true });
      const linked = (await this.queries.liveLinksOf(manager, [id])).get(id) ?? [];
      if (linked.includes(alertId)) return viewOfRow(locked, linked);
      const tooMany = linkCountProblem('alertId', linked.length + 1);
      if (tooMany)
        throw new WebhookDispatcherException(WebhookDispatcherExceptionCode.InvalidWebhook, tooMany);
      await this.queries.link(manager, id, alertId);
      const updatedAt = new Date();
      await manager.update(Webhook, { id }, { updatedAt });
      return viewOfRow(
        { ...locked, updatedAt },
        [...linked, alertId].sort((a, b) => a - b),
      );
    });
  }

  /**
   * The company's live webhook `id` (held until commit with `lock`); 404 for anything else. The
   * delivery-log routes check their webhook with it too.
   */
  async rowOf(
    manager: EntityManager,
    companyId: number,
    id: number,
    options: { lock?: boolean } = {},
  ): Promise<Webhook> {
    const found = await manager.findOne(Webhook, {
      select: VIEW_COLUMNS,
      where: { id, companyId, deletedAt: IsNull() },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!found) {
      throw new WebhookDispatcherException(
        WebhookDispatcherExceptionCode.WebhookNotFound,
        `Webhook ${id} was not found.`,
      );
    }
    return found;
  }

  private async viewOf(manager: EntityManager, row: Webhook): Promise<WebhookView> {
    return viewOfRow(row, (await this.queries.liveLinksOf(manager, [row.id])).get(row.id) ?? []);
  }

  /**
   * Every id must be a live configuration of the company, of a linkable type (webhook-rules.ts).
   * Checked before the webhook's row is locked, since it may wait; a configuration deleted between
   * this check and the commit leaves a link that is never shown (links are shown only while their
   * configuration is live) and never fires.
   */
  private async checkConfigurations(field: string, companyId: number, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    checkLinkable(field, companyId, ids, await this.liveConfigurations(ids));
  }

  /**
   * The live configurations among `ids`. A configuration created through alert-engine a moment ago
   * reaches this projection through alert-engine's outbox and the snapshot topic some tens of
   * milliseconds later, so a client that creates one and links it at once would otherwise get a 422
   * for an id it has just been given. So when some ids are unknown to the projection – no row at all,
   * not even a deleted one's tombstone – it is polled for up to 3 s before they are judged. Deleted
   * ids and other companies' are known, and answered at once.
   */
  private async liveConfigurations(ids: readonly number[]): Promise<Map<number, KnownConfiguration>> {
    return readWhenProjected(
      () => this.projection.liveOf(ids),
      async (live) =>
        live.size === ids.length || !(await this.projection.anyUnknown(ids.filter((id) => !live.has(id)))),
      PROJECTION_WAIT_MS,
    );
  }
}

function viewOfRow(row: Webhook, alertIds: number[]): WebhookView {
  return {
    id: row.id,
    companyId: row.companyId,
    url: row.url,
    isActive: row.isActive,
    isGlobal: row.isGlobal,
    alertIds,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
