import { alertEngineFixtures, alertEngineModules } from '@fleet/alert-engine-service-testing';
import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { commandGatewayFixtures, commandGatewayModules } from '@fleet/command-gateway-service-testing';
import { ServiceNames, Topics } from '@fleet/contracts';
import { EventPublisher } from '@fleet/platform';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { DeviceListener } from '@fleet/telemetry-ingest-service';
import { telemetryIngestFixtures, telemetryIngestModules } from '@fleet/telemetry-ingest-service-testing';
import {
  createTestKafka,
  parsePrometheusText,
  prometheusFamilies,
  PrometheusSample,
  sampleSum,
  TestContext,
  testKafkaBrokers,
  TestVehicle,
  uniqueNamespace,
  waitFor,
  WebhookReceiver,
} from '@fleet/testing';
import { webhookDispatcherModules } from '@fleet/webhook-dispatcher-service-testing';
import { bumpRuleVersion } from '@fleet/alert-engine-service';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

const NAMESPACE = uniqueNamespace('metrics');
const OVERSPEED = 10;
/** Fix times within the last hours: records land in the monthly partitions kept ahead. */
const BASE = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();
/** The one route given a tiny rate limit, to see refusals counted. */
const LIMITED_ROUTE = '/v2/api/vehicles/{id}/last-position';

/**
 * Every service's modules in one app over the real Kafka broker and PostgreSQL, as the embedded app
 * runs them (one registry, each family once), scraped over real HTTP on `GET /metrics`.
 */
class MetricsContext extends TestContext {
  static open(): Promise<MetricsContext> {
    return MetricsContext.start({
      modules: (reader) => [
        ...authModules(reader),
        ...telemetryIngestModules(reader),
        ...queryApiModules(reader),
        ...alertEngineModules(reader),
        ...webhookDispatcherModules(reader),
        ...commandGatewayModules(reader),
      ],
      fixtures: [
        authFixtures,
        queryApiFixtures,
        telemetryIngestFixtures,
        alertEngineFixtures,
        commandGatewayFixtures,
      ],
      env: {
        MESSAGING_TRANSPORT: 'kafka',
        KAFKA_BROKERS: testKafkaBrokers().join(','),
        KAFKA_NAMESPACE: NAMESPACE,
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        RATE_LIMIT_STORE: 'memory',
        RATE_LIMIT_DEFAULT: 'second=100000',
        RATE_LIMIT_ROUTES: JSON.stringify({ [`GET ${LIMITED_ROUTE}`]: 'minute=2' }),
        WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
      },
    });
  }

  get baseUrl(): string {
    const address = this.app.getHttpServer().address() as { port: number };
    return `http://127.0.0.1:${address.port}`;
  }

  /** `GET /metrics` over HTTP, as Prometheus scrapes it, parsed. */
  async scrape(): Promise<{ text: string; samples: PrometheusSample[] }> {
    const response = await fetch(`${this.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    return { text, samples: parsePrometheusText(text) };
  }

  /** The sum of the samples now, by name and labels. */
  async value(name: string, labels: Record<string, string> = {}): Promise<number> {
    return sampleSum((await this.scrape()).samples, name, labels);
  }

  async osmand(fields: Record<string, string | number>): Promise<number> {
    const port = this.app.get(DeviceListener).port;
    const query = new URLSearchParams(
      Object.entries(fields).map(([key, value]): [string, string] => [key, String(value)]),
    );
    return (await fetch(`http://127.0.0.1:${port}/?${query}`)).status;
  }

  get alerts(): DataSource {
    return this.app.get<DataSource>(getDataSourceToken('alerts'));
  }

  async overspeedConfiguration(companyId: number): Promise<void> {
    await this.alerts.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO alerts.configurations (company_id, name, alert_type_id, vehicle_ids, tags, settings)
         VALUES ($1, 'Overspeed', $2, '{}', '{}', $3)`,
        [companyId, OVERSPEED, JSON.stringify({ maxSpeedKmh: 100 })],
      );
      await bumpRuleVersion(manager, companyId);
    });
  }
}

describe('GET /metrics (every service in one app, over Kafka)', () => {
  let ctx: MetricsContext;
  let receiver: WebhookReceiver;
  let companyId: number;
  let token: string;
  let writer: string;
  let vehicle: TestVehicle;

  beforeAll(async () => {
    ctx = await MetricsContext.open();
    receiver = await WebhookReceiver.start();
    ({ companyId, token } = await ctx.newTenant());
    writer = await ctx.token(await ctx.newApiKey(companyId, { actions: ['positions:write'] }));
    vehicle = await ctx.newVehicle({ companyIds: [companyId] });
  });

  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  it('serves the families in the text format, with the service label and the Node process metrics', async () => {
    const { text, samples } = await ctx.scrape();
    const families = prometheusFamilies(text);
    expect(families.get('fleet_http_requests_total')).toBe('counter');
    expect(families.get('fleet_http_request_duration_seconds')).toBe('histogram');
    expect(families.get('fleet_webhook_delivery_latency_seconds')).toBe('histogram');
    expect(families.get('fleet_kafka_consumer_lag')).toBe('gauge');
    expect(families.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(sampleSum(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(
      samples.find((sample) => sample.name === 'nodejs_eventloop_lag_seconds')?.value,
    ).toBeGreaterThanOrEqual(0);
    expect(samples.every((sample) => sample.labels.service === 'fleet')).toBe(true);
  });

  it('counts requests by route template and status, unmatched ones under one label', async () => {
    const route = '/v2/api/vehicles/:id/last-position';
    const before = await ctx.value('fleet_http_requests_total', { method: 'GET', route, status: '404' });
    const durationsBefore = await ctx.value('fleet_http_request_duration_seconds_count', {
      route,
      status_class: '4xx',
    });
    const unmatchedBefore = await ctx.value('fleet_http_requests_total', {
      route: 'unmatched',
      status: '404',
    });
    const refusedBefore = await ctx.value('fleet_rate_limit_refusals_total', { route: `GET ${route}` });

    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${ctx.baseUrl}/v2/api/vehicles/${vehicle.id}/last-position`, {
        headers: { authorization: `Bearer ${token}` },
      });
      statuses.push(response.status);
    }
    // The vehicle has reported nothing yet: 404, its last position's answer, then the limit's 429.
    expect(statuses).toEqual([404, 404, 429]);
    expect((await fetch(`${ctx.baseUrl}/no/such/route/12345`)).status).toBe(404);

    const { samples } = await ctx.scrape();
    expect(sampleSum(samples, 'fleet_http_requests_total', { method: 'GET', route, status: '404' })).toBe(
      before + 2,
    );
    expect(
      sampleSum(samples, 'fleet_http_request_duration_seconds_count', { route, status_class: '4xx' }),
    ).toBe(durationsBefore + 3); // the two 404s and the 429
    expect(sampleSum(samples, 'fleet_http_requests_total', { route: 'unmatched', status: '404' })).toBe(
      unmatchedBefore + 1,
    );
    expect(sampleSum(samples, 'fleet_rate_limit_refusals_total', { route: `GET ${route}` })).toBe(
      refusedBefore + 1,
    );
    // No series names the raw URL (an id would make one per vehicle).
    expect(samples.some((sample) => sample.labels.route?.includes(String(vehicle.id)))).toBe(false);
  });

  it('counts positions accepted by source and rejected by reason', async () => {
    const value = (name: string, labels: Record<string, string>) => ctx.value(name, labels);
    const accepted = await value('fleet_positions_accepted_total', { source: 'osmand' });
    const unknown = await value('fleet_positions_rejected_total', {
      source: 'osmand',
      reason: 'unknown_device',
    });
    const unparseable = await value('fleet_positions_rejected_total', {
      source: 'osmand',
      reason: 'unparseable',
    });
    const batchUnknown = await value('fleet_positions_rejected_total', {
      source: 'batch',
      reason: 'unknown_device',
    });

    const fix = { lat: 52.52, lon: 13.405, timestamp: Math.floor(Date.now() / 1000) };
    expect(await ctx.osmand({ id: vehicle.imei, ...fix })).toBe(200);
    for (const imei of ['990000000000001', '990000000000002', '990000000000003']) {
      expect(await ctx.osmand({ id: imei, ...fix })).toBe(400);
    }
    expect(await ctx.osmand({ id: vehicle.imei, lat: 'north', lon: 13.4 })).toBe(400);
    const batch = await fetch(`${ctx.baseUrl}/ingest/v1/positions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        positions: ['990000000000004', '990000000000005'].map((deviceId) => ({
          deviceId,
          timestamp: new Date().toISOString(),
          lat: 52.5,
          lon: 13.4,
        })),
      }),
    });
    expect(batch.status).toBe(422);

    expect(await value('fleet_positions_accepted_total', { source: 'osmand' })).toBe(accepted + 1);
    expect(
      await value('fleet_positions_rejected_total', { source: 'osmand', reason: 'unknown_device' }),
    ).toBe(unknown + 3);
    expect(await value('fleet_positions_rejected_total', { source: 'osmand', reason: 'unparseable' })).toBe(
      unparseable + 1,
    );
    expect(await value('fleet_positions_rejected_total', { source: 'batch', reason: 'unknown_device' })).toBe(
      batchUnknown + 2,
    );
  });

  it('counts evaluations, the alert fired, its webhook delivered and its latency; consumer lag drains to 0', async () => {
    await ctx.overspeedConfiguration(companyId);
    const hook = await ctx.send('POST', '/v2/api/webhooks', token, {
      url: receiver.url('/alerts'),
      isGlobal: true,
    });
    expect(hook.statusCode).toBe(201);
    const evaluated = await ctx.value('fleet_alert_positions_evaluated_total');
    const fired = await ctx.value('fleet_alerts_fired_total', { type: String(OVERSPEED) });
    const delivered = await ctx.value('fleet_webhook_attempts_total', { outcome: 'delivered' });
    const latencies = await ctx.value('fleet_webhook_delivery_latency_seconds_count');
    const accepted = await ctx.value('fleet_positions_accepted_total', { source: 'batch' });

    const other = await ctx.newVehicle({ companyIds: [companyId] });
    const response = await ctx.send('POST', '/ingest/v1/positions', writer, {
      positions: [50, 120, 60].map((speedKmh, index) => ({
        deviceId: other.imei,
        timestamp: at(index * 10),
        lat: 52.52,
        lon: 13.405,
        speedKmh,
      })),
    });
    expect(response.statusCode).toBe(200);
    await receiver.waitForRequests(1, { path: '/alerts' });

    await waitFor(
      async () =>
        (await ctx.value('fleet_webhook_attempts_total', { outcome: 'delivered' })) === delivered + 1,
      {
        description: 'the delivery counted',
      },
    );
    expect(await ctx.value('fleet_positions_accepted_total', { source: 'batch' })).toBe(accepted + 3);
    expect(await ctx.value('fleet_alert_positions_evaluated_total')).toBe(evaluated + 3);
    expect(await ctx.value('fleet_alerts_fired_total', { type: String(OVERSPEED) })).toBe(fired + 1);
    expect(await ctx.value('fleet_webhook_delivery_latency_seconds_count')).toBe(latencies + 1);

    // Both groups reading positions report their lag per partition, and have consumed everything.
    const positionsTopic = Topics.positions.name;
    await waitFor(
      async () => {
        const { samples } = await ctx.scrape();
        const lag = samples.filter(
          (sample) => sample.name === 'fleet_kafka_consumer_lag' && sample.labels.topic === positionsTopic,
        );
        const groups = new Set(lag.map((sample) => sample.labels.group));
        return (
          groups.has(ServiceNames.queryApi) &&
          groups.has(ServiceNames.alertEngine) &&
          lag.every((s) => s.value === 0)
        );
      },
      { description: 'positions consumed by query-api and alert-engine, lag 0' },
    );
  });

  it('counts command status transitions', async () => {
    const count = (status: string) => ctx.value('fleet_commands_total', { status });
    const [queued, sent, acknowledged] = [
      await count('queued'),
      await count('sent'),
      await count('acknowledged'),
    ];

    const response = await ctx.send('PUT', `/v2/api/vehicles/${vehicle.id}/door-lock?isLock=true`, token);
    expect(response.statusCode).toBe(200);
    const commandId = response.json<{ id?: string; commandId?: string }>();
    const id = commandId.id ?? commandId.commandId;
    expect(await count('queued')).toBe(queued + 1);

    const result = (status: 'sent' | 'acknowledged') => ({
      key: String(vehicle.id),
      payload: { commandId: id!, vehicleId: vehicle.id, status, at: new Date().toISOString() },
    });
    const publisher = ctx.app.get(EventPublisher);
    // `sent` twice (a device polling again) is one transition.
    await publisher.publish(Topics.commandResults, [result('sent'), result('sent'), result('acknowledged')]);
    await waitFor(async () => (await count('acknowledged')) === acknowledged + 1, {
      description: 'the acknowledgement counted',
    });
    expect(await count('sent')).toBe(sent + 1);
  });

  it('counts dead letters by source topic', async () => {
    const before = await ctx.value('fleet_dead_letters_total', { topic: Topics.alertsFired.name });
    const producer = createTestKafka('metrics-test').producer();
    await producer.connect();
    try {
      await producer.send({
        topic: `${NAMESPACE}.${Topics.alertsFired.name}`,
        messages: [
          { key: 'poison', value: 'not json' },
          { key: 'poison', value: '{"neither":"an alert"}' },
        ],
      });
    } finally {
      await producer.disconnect();
    }
    // Each consumer group dead-letters what it cannot read: webhook-dispatcher's and query-api's (the live
    // channels) both consume the topic in this app.
    const groups = 2;
    await waitFor(
      async () =>
        (await ctx.value('fleet_dead_letters_total', { topic: Topics.alertsFired.name })) ===
        before + 2 * groups,
      { description: 'two dead letters counted per consumer group' },
    );
  });

  it('reads the outbox backlog and the age of its oldest row on scrape', async () => {
    // Holding the relay's lock keeps the row in the outbox while it is scraped.
    const client = await ctx.database.pool.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(hashtext('fleet-outbox:alerts'))`);
      await client.query(
        `INSERT INTO alerts.outbox (topic, key, payload, created_at)
         VALUES ('alerts.fired.v1', 'held', '{}', now() - interval '90 seconds')`,
      );
      const { samples } = await ctx.scrape();
      expect(sampleSum(samples, 'fleet_outbox_backlog', { schema: 'alerts' })).toBe(1);
      expect(
        sampleSum(samples, 'fleet_outbox_oldest_age_seconds', { schema: 'alerts' }),
      ).toBeGreaterThanOrEqual(90);
      expect(sampleSum(samples, 'fleet_outbox_backlog', { schema: 'commands' })).toBe(0);
      await client.query(`DELETE FROM alerts.outbox WHERE key = 'held'`);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext('fleet-outbox:alerts'))`);
      client.release();
    }
    expect(await ctx.value('fleet_outbox_backlog', { schema: 'alerts' })).toBe(0);
    expect(await ctx.value('fleet_outbox_oldest_age_seconds', { schema: 'alerts' })).toBe(0);
  });
});
