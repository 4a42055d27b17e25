import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds buckets for request handling: 5 ms to 10 s. */
const REQUEST_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets for webhook delivery, from the row's creation: retries run for hours. */
const DELIVERY_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1_800, 7_200, 28_800];

/** The outbox of one schema, read on scrape: rows waiting and the age of the oldest. */
export interface OutboxProbe {
  schema: string;
  backlog(): Promise<{ rows: number; oldestAgeSeconds: number }>;
}

/** Consumer lag of one group on one partition, in messages. */
export interface LagSample {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

/** A source of consumer lag read on scrape (the in-process broker knows it without asking anyone). */
export type LagSource = () => readonly LagSample[];

/**
 * Every metric family of the platform, bound to one registry per app instance (never prom-client's
 * global one): an app built twice in one process (tests) registers nothing twice, and the embedded
 * app, one process with every module, serves each family once. Families are declared here, all in
 * one place, so the dashboard and the docs can be checked against the full list; services only
 * record into them. Labels take values from small fixed sets (route templates, outcomes, reasons):
 * never ids, URLs as sent, or error texts.
 */
export class FleetMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'fleet_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpRequestDuration = new Histogram({
    name: 'fleet_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to sending its response.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: REQUEST_SECONDS,
    registers: [this.registry],
  });

  readonly consumerLag = new Gauge({
    name: 'fleet_kafka_consumer_lag',
    help: 'Messages of a partition not yet consumed by a consumer group (as of its latest fetch).',
    labelNames: ['group', 'topic', 'partition'] as const,
    registers: [this.registry],
  });

  readonly outboxBacklog = new Gauge({
    name: 'fleet_outbox_backlog',
    help: 'Outbox rows not yet relayed to the broker, per schema (read on scrape).',
    labelNames: ['schema'] as const,
    registers: [this.registry],
  });

  readonly outboxOldestAge = new Gauge({
    name: 'fleet_outbox_oldest_age_seconds',
    help: 'Age of the oldest outbox row not yet relayed, per schema (0 when empty; read on scrape).',
    labelNames: ['schema'] as const,
    registers: [this.registry],
  });

  readonly deadLetters = new Counter({
    name: 'fleet_dead_letters_total',
    help: 'Messages moved to a dead-letter topic, by source topic.',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  readonly positionsAccepted = new Counter({
    name: 'fleet_positions_accepted_total',
    help: 'Positions accepted and published, by source (osmand: the tracker port; batch: the integrators API).',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly positionsRejected = new Counter({
    name: 'fleet_positions_rejected_total',
    help: 'Positions refused, by reason (a refused batch counts each of its positions).',
    labelNames: ['source', 'reason'] as const,
    registers: [this.registry],
  });

  readonly deviceConnections = new Gauge({
    name: 'fleet_device_sessions',
    help: 'Trackers with a live TCP session on this replica, by protocol (teltonika, gt06).',
    labelNames: ['protocol'] as const,
    registers: [this.registry],
  });

  readonly deviceSessionsRefused = new Counter({
    name: 'fleet_device_sessions_refused_total',
    help:
      'Tracker connections or logins refused, by protocol and reason (second_session: another live ' +
      'session holds the IMEI; unknown_device; source_not_allowed; too_many_connections; throttled).',
    labelNames: ['protocol', 'reason'] as const,
    registers: [this.registry],
  });

  readonly rawFramesDropped = new Counter({
    name: 'fleet_raw_frames_dropped_total',
    help:
      'Tracker frames the raw frame archive could not keep, by reason (buffer_full: the database was ' +
      'away and the buffer filled; unwritten: still unwritten when the process stopped).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly alertPositionsEvaluated = new Counter({
    name: 'fleet_alert_positions_evaluated_total',
    help: 'Positions evaluated against alert configurations (late fixes and redeliveries excluded).',
    registers: [this.registry],
  });

  readonly alertsFired = new Counter({
    name: 'fleet_alerts_fired_total',
    help: 'Alerts fired and recorded, by alert type id.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'fleet_webhook_attempts_total',
    help: 'Webhook deliveries handled, by outcome (an attempt made, or the reason none was).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveryLatency = new Histogram({
    name: 'fleet_webhook_delivery_latency_seconds',
    help: 'Time from a delivery being planned (its alert consumed) to the receiver accepting it.',
    buckets: DELIVERY_SECONDS,
    registers: [this.registry],
  });

  readonly commands = new Counter({
    name: 'fleet_commands_total',
    help: 'Device command status transitions, by the status entered.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly streamsOpen = new Gauge({
    name: 'fleet_streams_open',
    help: 'Live streams (GET /v2/api/stream) open on this replica.',
    registers: [this.registry],
  });

  readonly streamEvents = new Counter({
    name: 'fleet_stream_events_total',
    help: 'Events written to live streams, by type (position, alert, command).',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly streamsEnded = new Counter({
    name: 'fleet_streams_ended_total',
    help:
      'Live streams ended by the server, by reason (overflow: the client did not keep up; expired; ' +
      'suspended; shutdown), or by the client (closed).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'fleet_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate-limit windows, by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  private readonly outboxes: OutboxProbe[] = [];
  private readonly lagSources: LagSource[] = [];

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
  }

  /** Reports this schema's outbox on every scrape. */
  addOutbox(probe: OutboxProbe): void {
    this.outboxes.push(probe);
  }

  /** Reports this source's consumer lag on every scrape (in addition to what is set directly). */
  addLagSource(source: LagSource): void {
    this.lagSources.push(source);
  }

  /** The exposition text (and its content type) for `GET /metrics`, collectors refreshed first. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    await this.refresh();
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Reads the on-scrape gauges; a collector that fails leaves its series out rather than failing the scrape. */
  private async refresh(): Promise<void> {
    this.outboxBacklog.reset();
    this.outboxOldestAge.reset();
    await Promise.all(
      this.outboxes.map(async (probe) => {
        try {
          const { rows, oldestAgeSeconds } = await probe.backlog();
          this.outboxBacklog.set({ schema: probe.schema }, rows);
          this.outboxOldestAge.set({ schema: probe.schema }, oldestAgeSeconds);
        } catch {
          // The database is away: readiness says so; the series is absent from this scrape.
        }
      }),
    );
    for (const source of this.lagSources) {
      for (const { group, topic, partition, lag } of source()) {
        this.consumerLag.set({ group, topic, partition: String(partition) }, lag);
      }
    }
  }
}
