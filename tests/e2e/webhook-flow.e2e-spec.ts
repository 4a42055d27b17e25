import { randomBytes } from 'node:crypto';
import { Topics } from '@fleet/contracts';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import {
  AppProcess,
  companySnapshot,
  createTestKafka,
  DistributedServices,
  ReceivedRequest,
  TestDatabase,
  testAccessToken,
  vehicleSnapshot,
  waitFor,
  WebhookReceiver,
} from '@fleet/testing';
import { verify } from '@octokit/webhooks-methods';
import { Producer } from 'kafkajs';

const COMPANY = 1;
const VEHICLES = 12;
const MAX_SPEED_KMH = 100;
/** Whole seconds within the last hour: records land in the partitions alert-engine keeps. */
const START = Math.floor(Date.now() / 1_000) * 1_000 - 10 * 60_000;
/** Each vehicle's fixes: below the maximum, then one above it (one overspeed alert per vehicle). */
const SPEEDS = [50, 130];
const fixTime = (fix: number) => new Date(START + fix * 1_000).toISOString();
/** A delivery was in flight at the kill: it is due again when its lease ends (delivery-worker.ts). */
const LEASE_MS = 20_000;

interface Answered {
  request: ReceivedRequest;
  status: number | 'hang';
  /** Received after the dispatcher was started again. */
  afterRestart: boolean;
}

/** What a delivery body says of its alert: the vehicle and the fix time, the alert's identity here. */
const alertKeyOf = (body: string) => {
  const payload = JSON.parse(body) as { VehicleId: number; Timestamp: string; AlertType: string };
  return `${payload.AlertType} ${payload.VehicleId}@${payload.Timestamp}`;
};

/**
 * The whole path of a webhook event over real Kafka, each service its own process: positions go to
 * telemetry-ingest, alert-engine records overspeed alerts and publishes them, webhook-dispatcher
 * plans and POSTs signed deliveries to a real receiver. The receiver fails every delivery at first
 * (half hang until the 5 s timeout, half answer 500), the dispatcher is killed with SIGKILL while
 * they are pending, the receiver recovers and the dispatcher is started again: every fired alert
 * must then reach the receiver, signed (checked with @octokit/webhooks-methods). Duplicates are
 * allowed (spec, "Events"); they are counted and printed.
 */
describe('webhook deliveries from a tracker report to a receiver (separate processes, real Kafka)', () => {
  let database: TestDatabase;
  let producer: Producer;
  let receiver: WebhookReceiver;
  let services: DistributedServices;
  let dispatcherEnv: Record<string, string>;
  let namespace: string;
  /** The running process of each service (replaced when a test restarts one). */
  const processes = new Map<string, AppProcess>();

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await database.pool.query(sql, params)).rows[0].n);

  /** A failed wait, with where the alerts got to and the services' output. */
  const explained = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const { rows } = await database.pool.query(
        `SELECT (SELECT count(*) FROM alerts.records) AS records, (SELECT count(*) FROM alerts.outbox) AS outbox,
                (SELECT json_agg(json_build_object('status', status, 'attempts', attempts, 'outcome', outcome))
                   FROM webhooks.deliveries) AS deliveries`,
      );
      const logs = [...processes.values()].map((process) => `--- ${process.app}\n${process.logs()}`);
      throw new Error(`${(error as Error).message}\n${JSON.stringify(rows[0])}\n${logs.join('\n')}`);
    }
  };

  beforeAll(async () => {
    services = await DistributedServices.open('webhooks');
    ({ database, namespace } = services);
    receiver = await WebhookReceiver.start();
    dispatcherEnv = {
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
    };
    const [ingest, engine, dispatcher] = await Promise.all([
      services.start('telemetry-ingest'),
      services.start('alert-engine'),
      services.start('webhook-dispatcher', dispatcherEnv),
    ]);
    processes
      .set('telemetry-ingest', ingest)
      .set('alert-engine', engine)
      .set('webhook-dispatcher', dispatcher);
    producer = createTestKafka('webhook-flow-test').producer({ idempotent: true });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await receiver?.close();
    await services?.close();
  });

  it('delivers every fired alert, signed, although the dispatcher was killed while deliveries were pending', async () => {
    const ingest = processes.get('telemetry-ingest')!;
    const engine = processes.get('alert-engine')!;

    // The test plays auth and the vehicle registry (the snapshot topics).
    const registry = new KafkaEventPublisher(producer, namespace);
    const vehicles = Array.from({ length: VEHICLES }, () => vehicleSnapshot({ companyIds: [COMPANY] }));
    await registry.publish(Topics.companySnapshots, [
      { key: String(COMPANY), payload: companySnapshot({ companyId: COMPANY }) },
    ]);
    await registry.publish(
      Topics.vehicleSnapshots,
      vehicles.map((vehicle) => ({ key: String(vehicle.vehicleId), payload: vehicle })),
    );
    await waitFor(
      async () =>
        (await count('SELECT count(*) AS n FROM ingest.device_sessions')) === VEHICLES &&
        (await count('SELECT count(*) AS n FROM alerts.vehicles')) === VEHICLES,
      { description: 'ingest and alert-engine to learn the vehicles' },
    );

    // An overspeed configuration of every vehicle of the company, through alert-engine's route: its
    // outbox publishes the snapshot that webhook-dispatcher's projection links are checked against.
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
        // alert-engine refuses the token until it has learnt the company from its snapshot.
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

    // The webhook, through webhook-dispatcher's route: its secret is shown this once.
    const dispatcherUrl = processes.get('webhook-dispatcher')!.baseUrl;
    const webhookToken = testAccessToken(COMPANY, { actions: ['webhooks:manage'] });
    const created = await fetch(`${dispatcherUrl}/v2/api/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${webhookToken}` },
      body: JSON.stringify({ url: receiver.url('/fleet-events'), alertIds: [configuration.id] }),
    });
    expect(created.status).toBe(201);
    const webhook = (await created.json()) as { id: number; secret: string; alertIds: number[] };
    expect(webhook.alertIds).toEqual([configuration.id]);

    // Down at first: each delivery's first attempt, in the order they come, hangs or answers 500.
    const answered: Answered[] = [];
    const failing = new Map<string, 'hang' | 500>();
    let recovered = false;
    let restarted = false;
    receiver.answer((request) => {
      const event = String(request.headers['x-service-event']);
      let status: Answered['status'] = 200;
      if (!recovered) {
        if (!failing.has(event)) failing.set(event, failing.size % 2 === 0 ? 'hang' : 500);
        status = failing.get(event)!;
      }
      answered.push({ request, status, afterRestart: restarted });
      return status === 'hang' ? 'hang' : { status, body: status === 200 ? 'ok' : 'down for maintenance' };
    });

    const positionsToken = testAccessToken(COMPANY, { actions: ['positions:write'] });
    const send = (fix: number) =>
      fetch(`${ingest.baseUrl}/ingest/v1/positions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${positionsToken}` },
        body: JSON.stringify({
          positions: vehicles.map((vehicle, index) => ({
            deviceId: vehicle.imei,
            timestamp: fixTime(fix),
            lat: 52 + index / 100,
            lon: 13 + fix / 10_000,
            speedKmh: SPEEDS[fix],
          })),
        }),
      });
    // ingest refuses the token until it has learnt the company; this batch fires nothing.
    await waitFor(async () => (await send(0)).status === 200, { description: 'ingest to learn the company' });
    expect((await send(1)).status).toBe(200);
    const expected = new Set(
      vehicles.map((vehicle) => `ExceedMaximumSpeed ${vehicle.vehicleId}@${fixTime(1)}`),
    );

    // Every delivery attempted once and failing: those answered 500 recorded as failed attempts, those
    // that hang still in flight. Kill the dispatcher then, while all are pending.
    const answered500 = () => [...failing.values()].filter((mode) => mode === 500).length;
    await explained(
      waitFor(
        async () =>
          failing.size === VEHICLES &&
          (await count(
            'SELECT count(*) AS n FROM webhooks.deliveries WHERE webhook_id = $1 AND attempts >= 1',
            [webhook.id],
          )) >= answered500(),
        { description: `a first attempt of each of the ${VEHICLES} deliveries, the failed ones recorded` },
      ),
    );
    await processes.get('webhook-dispatcher')!.kill('SIGKILL');
    const requestsBeforeKill = answered.length;
    const { rows: atKill } = await database.pool.query<{
      status: string;
      in_flight: boolean | null;
      attempts: number;
    }>(
      `SELECT status, lease_until > now() AS in_flight, attempts FROM webhooks.deliveries WHERE webhook_id = $1`,
      [webhook.id],
    );
    const inFlightAtKill = atKill.filter((row) => row.in_flight && row.attempts === 0).length;
    const awaitingRetryAtKill = atKill.filter((row) => row.attempts >= 1).length;
    // Pending, none delivered: those that hung were in flight (leased, no attempt recorded), the
    // others had a failed attempt and waited for their retry.
    expect(atKill.map((row) => row.status)).toEqual(Array(VEHICLES).fill('pending'));
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(awaitingRetryAtKill).toBeGreaterThan(0);

    recovered = true;
    const restartedAt = Date.now();
    restarted = true;
    processes.set('webhook-dispatcher', await services.start('webhook-dispatcher', dispatcherEnv));
    const deliveredAfterRestart = () =>
      new Set(
        answered
          .filter((entry) => entry.afterRestart && entry.status === 200)
          .map((entry) => alertKeyOf(entry.request.body)),
      );
    await explained(
      waitFor(() => [...expected].every((key) => deliveredAfterRestart().has(key)), {
        // Those in flight at the kill are due when their lease ends, 20 s after their claim.
        timeoutMs: LEASE_MS + 25_000,
        description: `every one of the ${VEHICLES} alerts delivered after the restart`,
      }),
    );

    // Every request the receiver got, before and after the kill, carries a valid signature.
    for (const { request } of answered) {
      await expect(
        verify(webhook.secret, request.body, String(request.headers['x-service-signature'])),
      ).resolves.toBe(true);
    }
    expect(new Set(answered.map((entry) => alertKeyOf(entry.request.body)))).toEqual(expected);
    // One delivery per fired alert, although the restarted dispatcher may have consumed some again,
    // and each is recorded as delivered.
    await waitFor(
      async () =>
        (await count(
          `SELECT count(*) AS n FROM webhooks.deliveries WHERE webhook_id = $1 AND status = 'delivered'`,
          [webhook.id],
        )) === VEHICLES,
      { description: 'every delivery recorded as delivered' },
    );
    expect(await count('SELECT count(*) AS n FROM webhooks.deliveries')).toBe(VEHICLES);
    expect(await count('SELECT count(*) AS n FROM alerts.records')).toBe(VEHICLES);

    const successes = answered.filter((entry) => entry.status === 200);
    const perEvent = new Map<string, number>();
    for (const { request } of successes) {
      const event = String(request.headers['x-service-event']);
      perEvent.set(event, (perEvent.get(event) ?? 0) + 1);
    }
    console.log(
      JSON.stringify({
        measurement: 'webhook-flow',
        alertsFired: VEHICLES,
        pendingAtKill: atKill.length,
        inFlightAtKill,
        awaitingRetryAtKill,
        requestsBeforeKill,
        requestsAfterRestart: answered.length - requestsBeforeKill,
        deliveredRequests: successes.length,
        duplicateDeliveries: successes.length - perEvent.size,
        lastDeliveryAfterRestartMs:
          Math.max(...successes.map((entry) => entry.request.receivedAt)) - restartedAt,
      }),
    );
  }, 150_000);
});
