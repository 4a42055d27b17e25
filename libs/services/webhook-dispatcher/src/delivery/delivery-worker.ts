import { randomUUID } from 'node:crypto';
import { BatchCoalescer, CompanyDirectory, FleetMetrics, inTraceOf } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptOutcome, WebhookSender } from '../sending/webhook-sender';
import { WEBHOOK_DISPATCHER_CONFIG, WebhookDispatcherConfig } from '../webhook-dispatcher.config';
import { WEBHOOKS_SCHEMA } from '../webhook-dispatcher.schema.constants';
import { SecretBox } from '../webhooks/secret-box';
import { WebhookQueries, WebhookState } from '../webhooks/webhooks.queries';
import { AttemptLabel, attemptLabelOf } from './delivery-metrics';
import { DeliveryPlanner } from './delivery-planner';
import { AttemptedResult, ClaimedDelivery, DeliveryQueries, DeliveryResult } from './delivery.queries';
import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule';
import { signatureOf } from './signature';

/** How long a claimed delivery is held: longer than an attempt can take (5 s POST, 5 s GET, lookups). */
const LEASE_SECONDS = 20;
/** How often deliveries planned or rescheduled by other processes are looked for. */
const POLL_INTERVAL_MS = 200;
/** Results written per transaction at most. */
const MAX_RESULTS_PER_TRANSACTION = 1_000;
/** Most deliveries claimed by one query. */
const MAX_CLAIM = 500;

const DELETED: Pick<DeliveryResult, 'status' | 'outcome'> = {
  status: 'cancelled',
  outcome: 'webhook deleted',
};

/**
 * Attempts due deliveries (docs/webhooks.md, "How delivery works"). Deliveries and their schedule live
 * in the database: each process claims due rows with `FOR UPDATE SKIP LOCKED` and holds them with a
 * lease while it attempts them, so replicas share the work without sending one attempt twice, and a
 * crashed process's deliveries are due again when their lease ends (a duplicate is possible then, as
 * the spec allows). Concurrency is bounded overall and per endpoint (scheme, host and port): a slow or
 * dead receiver occupies at most its own share of slots, and deliveries to others go on.
 *
 * The webhook and its company are read at send time: a deleted webhook's delivery is cancelled, an
 * inactive one's or a suspended company's is dropped, and the current URL and secret are used.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly sender: WebhookSender;
  private readonly results = new BatchCoalescer<DeliveryResult>(
    (results) => this.record(results),
    MAX_RESULTS_PER_TRANSACTION,
  );
  /** Attempts in flight, in total and per endpoint, with the webhooks being sent to there. */
  private inFlight = 0;
  private readonly endpoints = new Map<string, { count: number; webhookIds: Map<number, number> }>();
  private readonly attemptsInFlight = new Set<Promise<void>>();
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private pendingWake = false;

  constructor(
    @InjectDataSource(WEBHOOKS_SCHEMA) private readonly dataSource: DataSource,
    @Inject(WEBHOOK_DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    private readonly companies: CompanyDirectory,
    private readonly secrets: SecretBox,
    private readonly metrics: FleetMetrics,
    private readonly deliveries: DeliveryQueries,
    private readonly webhooks: WebhookQueries,
    planner: DeliveryPlanner,
  ) {
    this.sender = new WebhookSender({
      allowPrivateCidrs: config.allowPrivateCidrs,
      connectionsPerOrigin: config.maxPerEndpoint,
    });
    planner.whenPlanned(() => this.wake());
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming, lets the attempts in flight finish and their results be written. */
  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.attemptsInFlight]);
    await this.sender.close();
  }

  /** Look for due deliveries now (new ones were planned, or a slot or a retry time came). */
  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let backoffMs = POLL_INTERVAL_MS;
    while (this.running) {
      this.pendingWake = false;
      let claimedAll = false;
      let failed = false;
      try {
        const free = this.config.maxConcurrency - this.inFlight;
        if (free > 0) {
          const limit = Math.min(free, MAX_CLAIM);
          const claimed = await this.claim(limit);
          await this.start(claimed);
          claimedAll = claimed.length === limit;
        }
        backoffMs = POLL_INTERVAL_MS;
      } catch (error) {
        this.logger.error({ msg: 'claiming due webhook deliveries failed; will retry', err: error });
        backoffMs = Math.min(backoffMs * 2, 5_000);
        failed = true;
      }
      // A full claim may have left more due rows: look again at once (unless the database failed).
      if (!this.running || (!failed && (claimedAll || this.pendingWake))) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoffMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /**
   * Claims up to `limit` due deliveries, oldest due first, leaving out webhooks whose endpoint has no
   * free slot in this process; holds them with a lease.
   */
  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    const saturated = [...this.endpoints.values()]
      .filter((endpoint) => endpoint.count >= this.config.maxPerEndpoint)
      .flatMap((endpoint) => [...endpoint.webhookIds.keys()]);
    return this.deliveries.claimDue(limit, saturated, LEASE_SECONDS);
  }

  /** Starts an attempt for each claimed delivery that has a free slot; releases the others at once. */
  private async start(claimed: readonly ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return;
    const webhooks = await this.webhooks.statesOf([
      ...new Set(claimed.map((delivery) => delivery.webhookId)),
    ]);
    const released: string[] = [];
    for (const delivery of claimed) {
      const webhook = webhooks.get(delivery.webhookId);
      const refusal = this.refusalOf(webhook);
      if (!webhook || refusal) {
        this.count(!webhook || refusal?.status === 'cancelled' ? 'cancelled' : 'dropped');
        this.submitQuietly({ deliveryId: delivery.id, attempts: delivery.attempts, ...(refusal ?? DELETED) });
        continue;
      }
      const endpoint = endpointOf(webhook.url);
      const slot = this.endpoints.get(endpoint) ?? { count: 0, webhookIds: new Map<number, number>() };
      if (slot.count >= this.config.maxPerEndpoint || this.inFlight >= this.config.maxConcurrency) {
        released.push(delivery.id);
        continue;
      }
      slot.count += 1;
      slot.webhookIds.set(webhook.id, (slot.webhookIds.get(webhook.id) ?? 0) + 1);
      this.endpoints.set(endpoint, slot);
      this.inFlight += 1;
      // In the delivery's own trace: the sender's HTTP span joins the trace of the alert it delivers.
      const attempt = inTraceOf(delivery.traceparent, () => this.attempt(delivery, webhook)).finally(() => {
        this.inFlight -= 1;
        slot.count -= 1;
        const remaining = (slot.webhookIds.get(webhook.id) ?? 1) - 1;
        if (remaining > 0) slot.webhookIds.set(webhook.id, remaining);
        else slot.webhookIds.delete(webhook.id);
        if (slot.count === 0) this.endpoints.delete(endpoint);
        this.attemptsInFlight.delete(attempt);
        this.wake();
      });
      this.attemptsInFlight.add(attempt);
    }
    if (released.length) await this.deliveries.releaseLeases(released);
  }

  /** A result written in the background: failing leaves the delivery pending, due again after its lease. */
  private submitQuietly(result: DeliveryResult): void {
    this.results.submit([result]).catch((error: unknown) => {
      this.logger.error({
        msg: 'recording a webhook delivery failed',
        deliveryId: result.deliveryId,
        err: error,
      });
    });
  }

  /** Why a delivery to this webhook ends without an attempt, if it does. */
  private refusalOf(
    webhook: WebhookState | undefined,
  ): Pick<DeliveryResult, 'status' | 'outcome'> | undefined {
    if (!webhook || webhook.deleted_at) return DELETED;
    if (!webhook.is_active) return { status: 'dropped', outcome: 'webhook inactive' };
    const blocking = this.companies.blockingAncestor(webhook.company_id);
    if (blocking)
      return { status: 'dropped', outcome: `company ${blocking.companyId} is ${blocking.status}` };
    return undefined;
  }

  /** One attempt: signed with the webhook's current secret, sent to its current URL. */
  private async attempt(delivery: ClaimedDelivery, webhook: WebhookState): Promise<void> {
    let result: DeliveryResult;
    try {
      const secret = this.secrets.open(webhook.secret_ciphertext, webhook.id);
      const deliveryUuid = randomUUID();
      const startedAt = new Date();
      const outcome = await this.sender.send({
        url: webhook.url,
        body: delivery.body,
        headers: {
          'X-Service-Signature': signatureOf(delivery.body, secret),
          'X-Service-Delivery': deliveryUuid,
          'X-Service-Event': delivery.id,
        },
      });
      result = resultOf(delivery, outcome, deliveryUuid, startedAt);
      this.count(attemptLabelOf(outcome), outcome.kind === 'delivered' ? delivery.createdAt : undefined);
      // In the delivery's trace: with tracing on, the line carries the traceId of the alert it delivers.
      this.logger.debug({
        msg: 'webhook attempt',
        deliveryId: delivery.id,
        status: result.status,
        attempts: result.attempts,
      });
    } catch (error) {
      // The sender reports network and HTTP problems as outcomes; this is a secret that cannot be
      // opened (a changed WEBHOOK_SECRET_KEY) or a bug. Never retried blindly: recorded and logged.
      this.logger.error({
        msg: 'webhook delivery could not be attempted',
        deliveryId: delivery.id,
        err: error,
      });
      this.count('unsignable');
      result = {
        deliveryId: delivery.id,
        status: 'dropped',
        attempts: delivery.attempts,
        outcome: 'the webhook could not be signed (its secret cannot be read)',
      };
    }
    try {
      await this.results.submit([result]);
    } catch (error) {
      // Left pending with its lease: due again when the lease ends (a duplicate attempt is allowed).
      this.logger.error({ msg: 'recording a webhook attempt failed', deliveryId: delivery.id, err: error });
      return;
    }
    if (result.retryInMs !== undefined) {
      // Look for it when it is due, rather than at the next poll.
      setTimeout(() => this.wake(), result.retryInMs + 20).unref();
    }
  }

  /** Counts an attempt (or the decision not to make one); a delivered one's latency since it was planned. */
  private count(label: AttemptLabel, plannedAt?: Date): void {
    this.metrics.webhookAttempts.inc({ outcome: label });
    if (plannedAt)
      this.metrics.webhookDeliveryLatency.observe(Math.max(0, Date.now() - plannedAt.getTime()) / 1000);
  }

  /** Writes results in one transaction: attempts appended, deliveries moved on (unless cancelled meanwhile). */
  private async record(results: readonly DeliveryResult[]): Promise<void> {
    const attempts = results.filter((result): result is AttemptedResult => result.attempt !== undefined);
    await this.dataSource.transaction(async (manager) => {
      if (attempts.length) await this.deliveries.appendAttempts(manager, attempts);
      await this.deliveries.moveOn(manager, results);
    });
  }
}

/** Where concurrency is counted: scheme, host and port of the URL. */
function endpointOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function resultOf(
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  deliveryUuid: string,
  startedAt: Date,
): DeliveryResult {
  if (outcome.kind === 'refused') {
    return {
      deliveryId: delivery.id,
      status: 'dropped',
      attempts: delivery.attempts,
      outcome: outcome.reason,
    };
  }
  const number = delivery.attempts + 1;
  const attempt = {
    number,
    deliveryUuid,
    startedAt,
    durationMs: Math.round(outcome.durationMs),
    statusCode: outcome.statusCode ?? null,
    error: outcome.kind === 'failed' ? outcome.error : null,
    responseExcerpt: outcome.responseExcerpt ?? null,
    redirectedTo: outcome.redirectedTo ?? null,
  };
  if (outcome.kind === 'delivered') {
    return { deliveryId: delivery.id, status: 'delivered', attempts: number, outcome: null, attempt };
  }
  const retryInMs = retryDelayMs(number);
  if (retryInMs === undefined) {
    return {
      deliveryId: delivery.id,
      status: 'failed',
      attempts: number,
      outcome: `${MAX_ATTEMPTS} attempts failed; the last: ${outcome.error}`,
      attempt,
    };
  }
  return {
    deliveryId: delivery.id,
    status: 'pending',
    attempts: number,
    retryInMs,
    outcome: null,
    attempt,
  };
}
