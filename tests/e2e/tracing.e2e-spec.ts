import { randomBytes } from 'node:crypto';
import { Topics } from '@fleet/contracts';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import {
  AppProcess,
  companySnapshot,
  createTestKafka,
  DistributedServices,
  ExportedSpan,
  exportedSpans,
  SpanKinds,
  TestDatabase,
  testAccessToken,
  traceIdOf,
  vehicleSnapshot,
  waitFor,
  WebhookReceiver,
} from '@fleet/testing';
import { Producer } from 'kafkajs';

const COMPANY = 1;
const MAX_SPEED_KMH = 100;
const KNOTS_PER_KMH = 1 / 1.852;

/**
 * One tracker report followed across processes (docs/tracing.md): telemetry-ingest, query-api,
 * alert-engine and webhook-dispatcher run as their own processes with tracing on, exporting by
 * OTLP/HTTP JSON to a real local receiver. One OsmAnd report fires an overspeed alert whose webhook is
 * delivered; the spans of the report's HTTP request, alert-engine's consumption, the outbox relay's
 * publication and the delivery's HTTP request must form one trace: across Kafka headers, the outbox
 * row and the delivery row.
 */
describe('traces: one tracker report followed to its webhook delivery (separate processes, real Kafka)', () => {
  let services: DistributedServices;
  let database: TestDatabase;
  let producer: Producer;
  let collector: WebhookReceiver;
  let webhookReceiver: WebhookReceiver;
  let namespace: string;
  const processes = new Map<string, AppProcess>();

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await database.pool.query(sql, params)).rows[0].n);
  const spans = () => exportedSpans(collector.requests);

  /** A failed wait, with the spans received and the services' output. */
  const explained = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const seen = spans().map((span) => `${span.service} ${span.name} ${span.traceId}`);
      const logs = [...processes.values()].map((process) => `--- ${process.app}\n${process.logs()}`);
      throw new Error(`${(error as Error).message}\nspans:\n${seen.join('\n')}\n${logs.join('\n')}`);
    }
  };

  beforeAll(async () => {
    collector = await WebhookReceiver.start();
    webhookReceiver = await WebhookReceiver.start();
    services = await DistributedServices.open('traces', {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      // Export every 100 ms rather than 5 s: the test waits for the spans.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    ({ database, namespace } = services);
    const started = await Promise.all([
      services.start('telemetry-ingest'),
      services.start('query-api'),
      services.start('alert-engine'),
      services.start('webhook-dispatcher', {
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
        WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
        // The delivery worker's per-attempt line is a debug one.
        LOG_LEVEL: 'debug',
      }),
    ]);
    for (const process of started) processes.set(process.app, process);
    producer = createTestKafka('tracing-test').producer({ idempotent: true });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await services?.close();
    await collector?.close();
    await webhookReceiver?.close();
  });

  it('gives the report, its consumption and the webhook attempt one traceId, and logs it', async () => {
    const ingest = processes.get('telemetry-ingest')!;
    const engine = processes.get('alert-engine')!;
    const dispatcher = processes.get('webhook-dispatcher')!;

    // The test plays auth and the vehicle registry (the snapshot topics).
    const registry = new KafkaEventPublisher(producer, namespace);
    const vehicle = vehicleSnapshot({ companyIds: [COMPANY] });
    await registry.publish(Topics.companySnapshots, [
      { key: String(COMPANY), payload: companySnapshot({ companyId: COMPANY }) },
    ]);
    await registry.publish(Topics.vehicleSnapshots, [{ key: String(vehicle.vehicleId), payload: vehicle }]);
    await waitFor(
      async () =>
        (await count('SELECT count(*) AS n FROM ingest.device_sessions')) === 1 &&
        (await count('SELECT count(*) AS n FROM alerts.vehicles')) === 1,
      { description: 'ingest and alert-engine to learn the vehicle' },
    );

    const alertsToken = testAccessToken(COMPANY, { actions: ['alerts:write'] });
    const configuration = await waitFor(
      async () => {
        const response = await fetch(`${engine.baseUrl}/v2/api/companies/${COMPANY}/alerts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${alertsToken}` },
          body: JSON.stringify({
            name: 'Speeding',
            alertTypeId: 10,
            settings: { maxSpeedKmh: MAX_SPEED_KMH },
          }),
        });
        return response.status === 201 && ((await response.json()) as { id: number });
      },
      { description: 'alert-engine to create the configuration' },
    );
    await waitFor(
      async () =>
        (await count('SELECT count(*) AS n FROM webhooks.alert_configurations WHERE configuration_id = $1', [
          configuration.id,
        ])) === 1,
      { description: 'the configuration snapshot to reach webhook-dispatcher' },
    );
    const created = await fetch(`${dispatcher.baseUrl}/v2/api/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${testAccessToken(COMPANY, { actions: ['webhooks:manage'] })}`,
      },
      body: JSON.stringify({ url: webhookReceiver.url('/fleet-events'), alertIds: [configuration.id] }),
    });
    expect(created.status).toBe(201);

    // Two reports on the tracker port: within the limit, then above it (the one that fires).
    const start = Math.floor(Date.now() / 1_000) - 60;
    const report = (second: number, speedKmh: number) =>
      fetch(
        `${ingest.deviceUrl}/?${new URLSearchParams({
          id: vehicle.imei,
          lat: '52.52',
          lon: String(13.405 + second / 10_000),
          timestamp: String(start + second),
          speed: String(speedKmh * KNOTS_PER_KMH),
        })}`,
        { method: 'POST' },
      );
    expect((await report(0, 50)).status).toBe(200);
    // Taken by query-api and alert-engine before the next is sent: either would otherwise take both in
    // one batch, whose span continues the first report's trace, not the firing one's.
    const firstTaken = async () =>
      (await count('SELECT count(*) AS n FROM query.positions WHERE vehicle_id = $1', [
        vehicle.vehicleId,
      ])) === 1 &&
      (await count('SELECT count(*) AS n FROM alerts.vehicle_states WHERE vehicle_id = $1', [
        vehicle.vehicleId,
      ])) === 1;
    await waitFor(firstTaken, { description: 'query-api and alert-engine to take the first report' });
    expect((await report(1, 130)).status).toBe(200);

    const [delivery] = await explained(webhookReceiver.waitForRequests(1, { path: '/fleet-events' }));
    // The attempt sends its span's traceparent: the trace the whole chain continued.
    const traceId = traceIdOf(delivery.headers.traceparent);
    expect(traceId).toMatch(/^[\da-f]{32}$/);

    const inTrace = (predicate: (span: ExportedSpan) => boolean) =>
      spans().find((span) => span.traceId === traceId && predicate(span));
    const expectedSpans = {
      // The root: the report's request on the tracker port.
      report: (span: ExportedSpan) =>
        span.service === 'telemetry-ingest' &&
        span.kind === SpanKinds.server &&
        span.parentSpanId === '' &&
        span.attributes['server.port'] === Number(new URL(ingest.deviceUrl).port),
      positionsPublished: (span: ExportedSpan) =>
        span.service === 'telemetry-ingest' && span.kind === SpanKinds.producer,
      alertEngineConsumed: (span: ExportedSpan) =>
        span.service === 'alert-engine' &&
        span.kind === SpanKinds.consumer &&
        span.name.endsWith(`.${Topics.positions.name}`) &&
        span.name.startsWith('process '),
      queryApiConsumed: (span: ExportedSpan) =>
        span.service === 'query-api' &&
        span.kind === SpanKinds.consumer &&
        span.name.endsWith(`.${Topics.positions.name}`) &&
        span.name.startsWith('process '),
      alertRecorded: (span: ExportedSpan) =>
        span.service === 'alert-engine' &&
        span.attributes['db.system.name'] === 'postgresql' &&
        String(span.attributes['db.query.text']).includes('INSERT INTO alerts.records'),
      alertPublished: (span: ExportedSpan) =>
        span.service === 'alert-engine' && span.kind === SpanKinds.producer,
      dispatcherConsumed: (span: ExportedSpan) =>
        span.service === 'webhook-dispatcher' &&
        span.kind === SpanKinds.consumer &&
        span.name.endsWith(`.${Topics.alertsFired.name}`) &&
        span.name.startsWith('process '),
      webhookAttempt: (span: ExportedSpan) =>
        span.service === 'webhook-dispatcher' &&
        span.kind === SpanKinds.client &&
        span.name === 'POST' &&
        span.attributes['http.response.status_code'] === 200,
    };
    const missing = () =>
      Object.entries(expectedSpans)
        .filter(([, predicate]) => !inTrace(predicate))
        .map(([step]) => step);
    await explained(
      waitFor(() => missing().length === 0, {
        timeoutMs: 20_000,
        description: `every step's span in trace ${traceId}`,
      }).catch((error: Error) => {
        const trail = spans()
          .filter((span) => span.traceId === traceId)
          .map((span) => JSON.stringify(span));
        throw new Error(`${error.message}; missing: ${missing().join(', ')}\n${trail.join('\n')}`);
      }),
    );
    const found = Object.fromEntries(
      Object.entries(expectedSpans).map(([step, predicate]) => [step, inTrace(predicate)!]),
    ) as Record<keyof typeof expectedSpans, ExportedSpan>;
    // The chain is parent to child, not only the same trace id: alert-engine's consumption continues
    // ingest's publication, and the dispatcher's the relay's publication of the outbox row.
    expect(found.alertEngineConsumed.parentSpanId).toBe(found.positionsPublished.spanId);
    expect(found.dispatcherConsumed.parentSpanId).toBe(found.alertPublished.spanId);
    // The delivery row keeps the fired alert's event trace: the attempt continues it.
    expect(found.webhookAttempt.parentSpanId).toBe(found.alertPublished.spanId);
    expect(found.alertPublished.parentSpanId).toBe(found.alertEngineConsumed.spanId);
    expect(found.positionsPublished.parentSpanId).toBe(found.report.spanId);

    // The webhook receiver got the signed delivery, and the dispatcher's log line of the attempt
    // carries the trace.
    expect(delivery.headers['x-service-signature']).toEqual(expect.any(String));
    await explained(
      waitFor(
        () =>
          dispatcher
            .logs()
            .split('\n')
            .some((line) => line.includes('"webhook attempt"') && line.includes(`"traceId":"${traceId}"`)),
        { description: `the dispatcher's log line of the attempt with traceId ${traceId}` },
      ),
    );
  }, 150_000);
});
