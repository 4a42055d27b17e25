import { randomUUID } from 'node:crypto';
import { AlertFiredV1, isDeliveredToGlobalWebhooks, isDeliveredToLinkedWebhooks } from '@fleet/contracts';
import { BatchCoalescer, CompanyDirectory } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';
import { GlobalTarget, LinkedTarget, WebhookQueries } from '../webhooks/webhooks.queries';
import { DeliveryQueries, PlannedDelivery } from './delivery.queries';
import { webhookBodyOf } from './webhook-payload';

/** Fired alerts planned in one transaction at most. */
const MAX_ALERTS_PER_TRANSACTION = 2_000;

/** A fired alert to plan, with the `traceparent` of the event that brought it (null: not traced). */
interface TracedAlert {
  alert: AlertFiredV1;
  traceparent: string | null;
}

/**
 * Turns fired alerts into deliveries (spec, "Which alerts reach a webhook"): an alert-scoped, active
 * webhook gets the alerts of the configurations it links when their type is delivered to linked
 * webhooks (1, 2, 5, 8, 9, 10); a global, active webhook gets every type delivered to global webhooks
 * (those six and 3, 12, 13, 14) of configurations of its company and every company below it (the
 * event names the owning company's ancestors). Never: 15, 16, 17, 20. A webhook of a suspended company
 * gets no delivery; one that is suspended later, while its deliveries wait, is checked again at send
 * time.
 *
 * The body is built here, once, and stored with the delivery: every attempt sends the same bytes. A
 * fired alert consumed again plans nothing new (one delivery per fired alert and webhook, by a unique
 * index).
 */
@Injectable()
export class DeliveryPlanner {
  private readonly coalescer = new BatchCoalescer<TracedAlert>(
    (alerts) => this.plan(alerts),
    MAX_ALERTS_PER_TRANSACTION,
  );
  /** Told after deliveries were stored, so that the worker attempts them at once. */
  private onPlanned: () => void = () => undefined;

  constructor(
    @InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource,
    private readonly companies: CompanyDirectory,
    private readonly webhooks: WebhookQueries,
    private readonly deliveries: DeliveryQueries,
  ) {}

  whenPlanned(listener: () => void): void {
    this.onPlanned = listener;
  }

  /**
   * Plans deliveries for `alerts`; concurrent calls share one transaction and resolve once it committed.
   * `traceparents[i]` is the trace of `alerts[i]` (docs/tracing.md): stored with its deliveries.
   */
  apply(alerts: readonly AlertFiredV1[], traceparents: readonly (string | null)[] = []): Promise<void> {
    if (alerts.length === 0) return Promise.resolve();
    return this.coalescer.submit(alerts.map((alert, i) => ({ alert, traceparent: traceparents[i] ?? null })));
  }

  private async plan(alerts: readonly TracedAlert[]): Promise<void> {
    const stored = await this.dataSource.transaction(async (manager) => {
      const planned = await this.deliveriesOf(manager, alerts);
      return this.store(manager, planned);
    });
    if (stored > 0) this.onPlanned();
  }

  private async deliveriesOf(
    manager: EntityManager,
    traced: readonly TracedAlert[],
  ): Promise<PlannedDelivery[]> {
    const alerts = traced.map(({ alert }) => alert);
    const linkedTypes = alerts.filter((alert) => isDeliveredToLinkedWebhooks(alert.alertTypeId));
    const globalTypes = alerts.filter((alert) => isDeliveredToGlobalWebhooks(alert.alertTypeId));
    const linked: LinkedTarget[] = linkedTypes.length
      ? await this.webhooks.linkedTargets(manager, [
          ...new Set(linkedTypes.map((alert) => alert.configurationId)),
        ])
      : [];
    const companyIds = new Set(
      globalTypes.flatMap((alert) => [alert.companyId, ...alert.ancestorCompanyIds]),
    );
    const global: GlobalTarget[] = companyIds.size
      ? await this.webhooks.globalTargets(manager, [...companyIds])
      : [];

    const linkedByConfiguration = groupBy(linked, (row) => row.configuration_id);
    const globalByCompany = groupBy(global, (row) => row.company_id);
    const planned: PlannedDelivery[] = [];
    // An alert delivered twice within one batch is planned once.
    const seen = new Set<string>();
    for (const { alert, traceparent } of traced) {
      if (seen.has(alert.eventId)) continue;
      seen.add(alert.eventId);
      const body = webhookBodyOf(alert);
      if (body === undefined) continue;
      const targets = new Map<number, number>();
      if (isDeliveredToLinkedWebhooks(alert.alertTypeId)) {
        for (const row of linkedByConfiguration.get(alert.configurationId) ?? [])
          targets.set(row.webhook_id, row.company_id);
      }
      if (isDeliveredToGlobalWebhooks(alert.alertTypeId)) {
        for (const companyId of [alert.companyId, ...alert.ancestorCompanyIds]) {
          for (const row of globalByCompany.get(companyId) ?? []) targets.set(row.webhook_id, row.company_id);
        }
      }
      for (const [webhookId, companyId] of targets) {
        if (this.companies.blockingAncestor(companyId)) continue;
        planned.push({ id: randomUUID(), webhookId, alert, body, traceparent });
      }
    }
    return planned;
  }

  /** Inserts the deliveries due now; those already planned for the same alert and webhook are skipped. */
  private async store(manager: EntityManager, planned: readonly PlannedDelivery[]): Promise<number> {
    if (planned.length === 0) return 0;
    return this.deliveries.insertPlanned(manager, planned);
  }
}

function groupBy<T, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
