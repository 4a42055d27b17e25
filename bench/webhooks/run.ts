/**
 * bench/webhooks: webhook-dispatcher in the distributed mode (its own process with the services' node
 * options, real Kafka, real PostgreSQL), delivering to real HTTP receivers on 127.0.0.1 in the bench's
 * process (`WebhookReceiver` of libs/testing, allowed by WEBHOOK_ALLOW_PRIVATE_CIDRS).
 *
 *   1. latency: telemetry-ingest, query-api and alert-engine join; 1,000 vehicles of one company,
 *      one overspeed configuration (created through alert-engine's route, so its snapshot reaches the
 *      dispatcher through the outbox) linked to one webhook. Batches of 100 positions go to the batch
 *      endpoint at a steady `--rate` positions/s (default 2,000) for `--seconds` (default 30), after
 *      `--warmup` seconds (default 10) unmeasured; in each batch one vehicle goes above the maximum.
 *      Measured: from the batch's 200 (the position accepted) to its alert's delivery received, and
 *      from the alert record's `created_at` (the engine's transaction start) to the same receipt;
 *   2. throughput: `--deliveries` (default 20,000) deliveries planned at once, as `--deliveries /
 *      --fanout` fired alerts published on `alerts.fired.v1` for `--fanout` (default 10) webhooks
 *      linked to one configuration, all at one fast receiver (or spread over `--throughput-receivers`,
 *      each its own endpoint); deliveries/s from the first publish to the last delivery received;
 *   3. mix: `--mix-receivers` (default 20) receivers, each with a webhook linked to one configuration,
 *      so that each fired alert is a delivery to each; fired alerts published at a steady `--mix-rate`
 *      per second (default 25) for `--mix-seconds` (default 20), once with every receiver fast and once
 *      with 10% of them never answering (each attempt times out after 5 s). Measured: publish to
 *      receipt at the healthy receivers, p50/p99, in both runs.
 *
 * The bench plays auth (company snapshots, tokens) and the vehicle registry (vehicle snapshots); in 2
 * and 3 it also plays alert-engine (configuration snapshots and fired alerts on their topics). Webhooks
 * are made through webhook-dispatcher's route, which gives their secrets; signatures are checked with
 * @octokit/webhooks-methods.
 *
 * Usage: npm run bench:webhooks [-- --rate 2000 --seconds 30 --warmup 10 --deliveries 20000 --fanout 10
 * --throughput-receivers 1 --mix-receivers 20 --mix-rate 25 --mix-seconds 20 --phases latency,throughput,mix].
 * Prints one JSON document on stdout. KAFKA_BROKERS picks a running broker; otherwise scripts/kafka.sh
 * starts one. The dispatcher's settings come from the environment (e.g. WEBHOOK_MAX_PER_ENDPOINT).
 */
import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { AlertConfigurationSnapshotV1, AlertFiredV1, Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import { namespaced } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { verify } from '@octokit/webhooks-methods';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { ReceivedRequest, Reply, WebhookReceiver } from '@fleet/testing';
import { CpuMeter } from '../common/cpu-meter';
import { HttpClient } from '../common/http-load';
import {
  calibrate,
  createBenchDatabase,
  deleteNamespaceTopics,
  ensureKafka,
  log,
  machineFacts,
  numberFlag,
  setFlag,
  percentile,
  round,
  ServiceProcess,
  sleep,
} from '../common/infra';
import { benchCompany, benchToken } from '../common/tenant';

const RATE = numberFlag('rate', 2_000);
const SECONDS = numberFlag('seconds', 30);
const WARMUP_SECONDS = numberFlag('warmup', 10);
const DELIVERIES = numberFlag('deliveries', 20_000);
const FANOUT = numberFlag('fanout', 10);
const THROUGHPUT_RECEIVERS = numberFlag('throughput-receivers', 1);
const MIX_RECEIVERS = numberFlag('mix-receivers', 20);
const MIX_RATE = numberFlag('mix-rate', 25);
const MIX_SECONDS = numberFlag('mix-seconds', 20);
const PHASES = setFlag('phases', ['latency', 'throughput', 'mix']);
const TARGET = { p99AlertToDeliveryMs: 250, deliveriesPerSecond: 1_000 };

const BATCH = 100;
const VEHICLES = 1_000;
const LATENCY_COMPANY = 1;
const THROUGHPUT_COMPANY = 2;
const MIX_COMPANY = 3;
/** Configurations the bench announces as alert-engine would (ids far from alert-engine's own). */
const THROUGHPUT_CONFIGURATION = 900_001;
const MIX_CONFIGURATION = 900_002;
const MAX_SPEED_KMH = 100;

const imeiOf = (vehicleId: number) => `35${String(vehicleId).padStart(13, '0')}`;
/** A delivery's alert as its body names it: the vehicle and the fix time. */
const alertKeyOf = (vehicleId: number, fixTime: string) => `${vehicleId}@${fixTime}`;
const keyOfBody = (body: string) => {
  const payload = JSON.parse(body) as { VehicleId: number; Timestamp: string };
  return alertKeyOf(payload.VehicleId, payload.Timestamp);
};
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
};

/** Each vehicle's fixes one second apart, from six hours ago, in whole seconds. */
const clock = new Array<number>(VEHICLES + 1).fill(Math.floor(Date.now() / 1_000) * 1_000 - 6 * 3_600_000);
function nextFixTime(vehicleId: number): string {
  clock[vehicleId] += 1_000;
  return new Date(clock[vehicleId]).toISOString();
}

interface Services {
  env: Record<string, string>;
  jwtSecret: string;
  pool: Pool;
  registry: KafkaEventPublisher;
  dispatcher: ServiceProcess;
  kafkaPids: () => number[];
  kafka: Kafka;
  namespace: string;
  all: ServiceProcess[];
}

interface CreatedWebhook {
  id: number;
  secret: string;
}

/** Polls `probe` until it gives a value; fails after `timeoutMs` with `what`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** POSTs JSON until a 201 (a service refuses a company's token until it has learnt the company). */
async function created<T>(url: string, token: string, body: object): Promise<T> {
  let last = '';
  try {
    return await until(`a 201 from ${url}`, async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      if (response.status === 201) return (await response.json()) as T;
      last = `${response.status} ${(await response.text()).slice(0, 300)}`;
      return undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; its last answer: ${last}`);
  }
}

async function createWebhook(
  services: Services,
  companyId: number,
  input: { url: string; alertIds: number[] },
): Promise<CreatedWebhook> {
  const token = benchToken(services.jwtSecret, companyId, ['webhooks:manage']);
  return created<CreatedWebhook>(`${services.dispatcher.baseUrl}/v2/api/webhooks`, token, input);
}

/** Announces a configuration as alert-engine's outbox does, and waits for the dispatcher's projection. */
async function announceConfiguration(services: Services, configurationId: number, companyId: number) {
  const snapshot: AlertConfigurationSnapshotV1 = {
    configurationId,
    companyId,
    alertTypeId: 10,
    isActive: true,
    deleted: false,
    version: 1,
    updatedAt: new Date().toISOString(),
  };
  await services.registry.publish(Topics.alertConfigurationSnapshots, [
    { key: String(configurationId), payload: snapshot },
  ]);
  await waitForProjection(services, configurationId);
}

async function waitForProjection(services: Services, configurationId: number): Promise<void> {
  await until(`configuration ${configurationId} in webhook-dispatcher's projection`, async () => {
    const { rows } = await services.pool.query(
      'SELECT 1 FROM webhooks.alert_configurations WHERE configuration_id = $1',
      [configurationId],
    );
    return rows.length ? true : undefined;
  });
}

/** An overspeed alert as alert-engine publishes it. */
function firedAlert(
  configurationId: number,
  companyId: number,
  vehicleId: number,
  fixTime: string,
): AlertFiredV1 {
  return {
    eventId: randomUUID(),
    recordId: 1,
    configurationId,
    alertTypeId: 10,
    companyId,
    ancestorCompanyIds: [],
    vehicleId,
    vehicleName: `Bench ${vehicleId}`,
    lat: 48.1 + (vehicleId % 100) / 1_000,
    lng: 11.5 + Math.floor(vehicleId / 100) / 1_000,
    course: 90,
    fixTime,
    address: {
      street: 'Leopoldstraße 1',
      suburb: 'Schwabing',
      state: 'Bayern',
      postcode: '80802',
      country: 'Germany',
    },
    data: { speed: 142.5, maxSpeed: MAX_SPEED_KMH },
  };
}

/** Checks every signature of `requests` against the webhook secrets by URL path; the count of bad ones. */
async function invalidSignatures(
  requests: readonly ReceivedRequest[],
  secretOf: (request: ReceivedRequest) => string,
) {
  let invalid = 0;
  for (const request of requests) {
    const signature = String(request.headers['x-service-signature']);
    if (!(await verify(secretOf(request), request.body, signature))) invalid++;
  }
  return invalid;
}

/**
 * Phase 1: position accepted by telemetry-ingest → overspeed record in alert-engine → fired alert →
 * delivery received, at a steady rate of positions.
 */
async function latencyPhase(services: Services) {
  log('phase 1: telemetry-ingest, query-api and alert-engine join');
  const [engine, ingest, queryApi] = await Promise.all([
    ServiceProcess.start('alert-engine', services.env),
    ServiceProcess.start('telemetry-ingest', services.env),
    ServiceProcess.start('query-api', services.env),
  ]);
  services.all.push(engine, ingest, queryApi);
  const count = async (sql: string) => Number((await services.pool.query(sql)).rows[0].n);
  const snapshots: VehicleSnapshotV1[] = Array.from({ length: VEHICLES }, (_, index) => ({
    vehicleId: index + 1,
    name: `Bench ${index + 1}`,
    imei: imeiOf(index + 1),
    vin: null,
    companyIds: [LATENCY_COMPANY],
    deleted: false,
    version: 1,
    updatedAt: new Date().toISOString(),
  }));
  await services.registry.publish(
    Topics.vehicleSnapshots,
    snapshots.map((payload) => ({ key: String(payload.vehicleId), payload })),
  );
  await until('alert-engine and telemetry-ingest to learn the vehicles', async () =>
    (await count('SELECT count(*) AS n FROM alerts.vehicles')) === VEHICLES &&
    (await count('SELECT count(*) AS n FROM ingest.device_sessions')) === VEHICLES
      ? true
      : undefined,
  );

  const configuration = await created<{ id: number }>(
    `${engine.baseUrl}/v2/api/companies/${LATENCY_COMPANY}/alerts`,
    benchToken(services.jwtSecret, LATENCY_COMPANY, ['alerts:write']),
    { name: 'Speeding', alertTypeId: 10, settings: { maxSpeedKmh: MAX_SPEED_KMH } },
  );
  await waitForProjection(services, configuration.id);
  // When each fired alert reached Kafka (its record timestamp, set by alert-engine's relay), for the
  // breakdown of the delay.
  const firedAt = new Map<string, number>();
  const firedConsumer = services.kafka.consumer({ groupId: `${services.namespace}.bench-fired` });
  await firedConsumer.connect();
  await firedConsumer.subscribe({
    topic: namespaced(services, Topics.alertsFired.name),
    fromBeginning: true,
  });
  await firedConsumer.run({
    eachMessage: async ({ message }) => {
      const alert = JSON.parse(message.value!.toString()) as AlertFiredV1;
      firedAt.set(
        alertKeyOf(alert.vehicleId, new Date(alert.fixTime).toISOString()),
        Number(message.timestamp),
      );
    },
  });
  const receiver = await WebhookReceiver.start();
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  receiver.answer((request) => {
    const key = keyOfBody(request.body);
    if (arrivals.has(key)) duplicates++;
    else arrivals.set(key, performance.now());
    return { status: 200 };
  });
  const webhook = await createWebhook(services, LATENCY_COMPANY, {
    url: receiver.url('/latency'),
    alertIds: [configuration.id],
  });

  const http = new HttpClient(ingest.baseUrl, 32);
  const authorization = `Bearer ${benchToken(services.jwtSecret, LATENCY_COMPANY, ['positions:write'])}`;
  /** Batch `k`: 100 vehicles, one of them above the maximum speed (its next fix, 10 batches later, is not). */
  const batchOf = (k: number) => {
    const trigger = Math.floor(k / 10) % BATCH;
    return Array.from({ length: BATCH }, (_, slot) => {
      const vehicleId = ((k * BATCH) % VEHICLES) + slot + 1;
      const timestamp = nextFixTime(vehicleId);
      return {
        key: alertKeyOf(vehicleId, timestamp),
        trigger: slot === trigger,
        body: {
          deviceId: imeiOf(vehicleId),
          timestamp,
          lat: 48.1 + (vehicleId % 100) / 1_000,
          lon: 11.5 + (clock[vehicleId] % 3_600_000) / 3.6e8,
          speedKmh: slot === trigger ? 150 : 60,
          course: 90,
          ignition: true,
        },
      };
    });
  };
  const send = (positions: ReturnType<typeof batchOf>) =>
    http.send('POST', '/ingest/v1/positions', JSON.stringify({ positions: positions.map((p) => p.body) }), {
      'content-type': 'application/json',
      authorization,
    });
  await until('the batch endpoint to accept the bench token', async () =>
    (await send(batchOf(0))).status === 200 ? true : undefined,
  );

  /** Sends `seconds` of batches at RATE; the trigger of each accepted batch, with when it was sent and accepted. */
  const paced = async (seconds: number, firstBatch: number) => {
    const triggers: { key: string; sentAt: number; acceptedAt: number }[] = [];
    let failed = 0;
    const failures: Record<number, string> = {};
    const batchesPerSecond = RATE / BATCH;
    const requests: Promise<void>[] = [];
    const started = performance.now();
    for (let tick = 0; tick < seconds * batchesPerSecond; tick++) {
      const wait = started + (tick * 1000) / batchesPerSecond - performance.now();
      if (wait > 0) await sleep(wait);
      const positions = batchOf(firstBatch + tick);
      const sentAt = performance.now();
      requests.push(
        send(positions).then((response) => {
          if (response.status !== 200) {
            failures[response.status] = response.body.slice(0, 300);
            return void failed++;
          }
          triggers.push({
            key: positions.find((p) => p.trigger)!.key,
            sentAt,
            acceptedAt: performance.now(),
          });
        }),
      );
    }
    await Promise.all(requests);
    return {
      triggers,
      failed,
      failures,
      sentSeconds: (performance.now() - started) / 1000,
      batches: seconds * batchesPerSecond,
    };
  };

  log(`warm-up: ${RATE} positions/s for ${WARMUP_SECONDS} s, not measured`);
  await paced(WARMUP_SECONDS, 1);
  log(`phase 1: ${RATE} positions/s for ${SECONDS} s, measuring accepted to delivered`);
  const cpu = new CpuMeter({
    'webhook-dispatcher': { pids: () => [services.dispatcher.pid] },
    'alert-engine': { pids: () => [engine.pid] },
    'telemetry-ingest': { pids: () => [ingest.pid] },
    'query-api': { pids: () => [queryApi.pid] },
    kafka: { pids: services.kafkaPids },
    postgres: { command: 'postgres' },
    bench: { pids: () => [process.pid] },
  }).start();
  const run = await paced(SECONDS, 1 + WARMUP_SECONDS * (RATE / BATCH));
  const usage = cpu();
  // Deliveries still on their way when the last batch was answered.
  const deadline = performance.now() + 30_000;
  while (run.triggers.some((t) => !arrivals.has(t.key)) && performance.now() < deadline) await sleep(20);
  http.close();

  const accepted: number[] = [];
  const sent: number[] = [];
  const missing: string[] = [];
  for (const trigger of run.triggers) {
    const arrival = arrivals.get(trigger.key);
    if (arrival === undefined) {
      missing.push(trigger.key);
      continue;
    }
    // A delivery may arrive before the bench's event loop has read the batch's answer: delay 0.
    accepted.push(Math.max(0, arrival - trigger.acceptedAt));
    sent.push(arrival - trigger.sentAt);
  }
  // The record's created_at is its transaction's start in PostgreSQL's clock (the same machine's).
  const { rows: records } = await services.pool.query<{
    vehicle_id: number;
    utc_time: Date;
    created_at: Date;
  }>(`SELECT vehicle_id, utc_time, created_at FROM alerts.records WHERE alert_type_id = 10`);
  const createdAt = new Map(
    records.map((row) => [alertKeyOf(row.vehicle_id, row.utc_time.toISOString()), row.created_at.getTime()]),
  );
  const fromRecord: number[] = [];
  for (const trigger of run.triggers) {
    const arrival = arrivals.get(trigger.key);
    const recorded = createdAt.get(trigger.key);
    if (arrival !== undefined && recorded !== undefined)
      fromRecord.push(performance.timeOrigin + arrival - recorded);
  }
  // Where the time went: record → fired alert on Kafka → delivery planned → attempt started → received
  // (epoch milliseconds; PostgreSQL's, the broker's and the processes' clocks are the machine's).
  const { rows: planned } = await services.pool.query<{ body: string; created_at: Date; started_at: Date }>(
    `SELECT d.body, d.created_at, a.started_at FROM webhooks.deliveries d
       JOIN webhooks.delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
      WHERE d.webhook_id = $1`,
    [webhook.id],
  );
  const plannedOf = new Map(planned.map((row) => [keyOfBody(row.body), row]));
  const steps = {
    recordToFired: [] as number[],
    firedToPlanned: [] as number[],
    plannedToAttempt: [] as number[],
    attemptToReceived: [] as number[],
  };
  for (const trigger of run.triggers) {
    const [recorded, fired, row, arrival] = [
      createdAt.get(trigger.key),
      firedAt.get(trigger.key),
      plannedOf.get(trigger.key),
      arrivals.get(trigger.key),
    ];
    if (recorded === undefined || fired === undefined || !row || arrival === undefined) continue;
    steps.recordToFired.push(fired - recorded);
    steps.firedToPlanned.push(row.created_at.getTime() - fired);
    steps.plannedToAttempt.push(row.started_at.getTime() - row.created_at.getTime());
    steps.attemptToReceived.push(performance.timeOrigin + arrival - row.started_at.getTime());
  }
  await firedConsumer.disconnect();
  const invalid = await invalidSignatures(receiver.requests, () => webhook.secret);
  const signaturesChecked = receiver.requests.length;
  await receiver.close();
  const peakRssMb = Object.fromEntries([engine, ingest, queryApi].map((s) => [s.app, s.peakRssMb()]));
  // The dispatcher alone from here: the other services would idle beside it.
  for (const service of [engine, ingest, queryApi]) await service.stop();
  const acceptedSummary = summary(accepted);
  return {
    mode: 'distributed: telemetry-ingest, query-api, alert-engine and webhook-dispatcher each its own process, Kafka, PostgreSQL',
    measuredFrom:
      "acceptedToReceived: the batch endpoint's 200 for the batch holding the overspeed position; " +
      "recordCreatedToReceived: the alert record's created_at (alert-engine's transaction start, PostgreSQL's clock)",
    measuredTo: "the delivery's body complete at the local receiver",
    offeredPerSecond: RATE,
    achievedPerSecond: Math.round(((run.batches - run.failed) * BATCH) / run.sentSeconds),
    failedBatches: run.failed,
    failures: run.failures,
    measured: accepted.length,
    neverDelivered: missing.length,
    neverDeliveredExamples: missing.slice(0, 5),
    duplicateDeliveries: duplicates,
    acceptedToReceivedMs: acceptedSummary,
    sentToReceivedMs: summary(sent),
    recordCreatedToReceivedMs: summary(fromRecord),
    breakdownMs: {
      explained:
        "record created_at → the fired alert's Kafka timestamp → the delivery's created_at (the planner's " +
        "transaction start) → its first attempt's started_at → receipt",
      recordToFiredOnKafka: summary(steps.recordToFired),
      firedToPlanned: summary(steps.firedToPlanned),
      plannedToAttemptStarted: summary(steps.plannedToAttempt),
      attemptToReceived: summary(steps.attemptToReceived),
    },
    signaturesChecked,
    invalidSignatures: invalid,
    cpuPercentOfOneCore: usage,
    peakRssMb,
    meetsTarget: missing.length === 0 && acceptedSummary.p99 <= TARGET.p99AlertToDeliveryMs,
  };
}

/** Phase 2: DELIVERIES deliveries planned at once, to one fast receiver (or THROUGHPUT_RECEIVERS). */
async function throughputPhase(services: Services) {
  log(
    `phase 2: ${DELIVERIES} deliveries (${DELIVERIES / FANOUT} fired alerts × ${FANOUT} webhooks) to ${THROUGHPUT_RECEIVERS} receiver(s)`,
  );
  await announceConfiguration(services, THROUGHPUT_CONFIGURATION, THROUGHPUT_COMPANY);
  const receivers = await Promise.all(
    Array.from({ length: THROUGHPUT_RECEIVERS }, () => WebhookReceiver.start()),
  );
  const secrets = new Map<string, string>();
  const webhookIds: number[] = [];
  for (let index = 0; index < FANOUT; index++) {
    const path = `/throughput-${index}`;
    const url = receivers[index % receivers.length].url(path);
    const webhook = await createWebhook(services, THROUGHPUT_COMPANY, {
      url,
      alertIds: [THROUGHPUT_CONFIGURATION],
    });
    secrets.set(path, webhook.secret);
    webhookIds.push(webhook.id);
  }
  const received = new Set<string>();
  let firstAt = 0;
  let lastAt = 0;
  for (const receiver of receivers) {
    receiver.answer((request) => {
      const delivery = String(request.headers['x-service-event']);
      if (!received.has(delivery)) {
        received.add(delivery);
        lastAt = performance.now();
        firstAt ||= lastAt;
      }
      return { status: 200 };
    });
  }

  const alerts = Array.from({ length: Math.ceil(DELIVERIES / FANOUT) }, (_, index) => {
    const vehicleId = (index % VEHICLES) + 1;
    return firedAlert(THROUGHPUT_CONFIGURATION, THROUGHPUT_COMPANY, vehicleId, nextFixTime(vehicleId));
  });
  const expected = alerts.length * FANOUT;
  const cpu = new CpuMeter({
    'webhook-dispatcher': { pids: () => [services.dispatcher.pid] },
    kafka: { pids: services.kafkaPids },
    postgres: { command: 'postgres' },
    bench: { pids: () => [process.pid] },
  }).start();
  const rowUpdates = async () =>
    Number(
      (
        await services.pool.query(
          `SELECT n_tup_upd AS n FROM pg_stat_user_tables WHERE schemaname = 'webhooks' AND relname = 'deliveries'`,
        )
      ).rows[0].n,
    );
  const updatesBefore = await rowUpdates();
  const publishedAt = performance.now();
  for (let from = 0; from < alerts.length; from += 500) {
    await services.registry.publish(
      Topics.alertsFired,
      alerts.slice(from, from + 500).map((payload) => ({ key: String(payload.vehicleId), payload })),
    );
  }
  const publishSeconds = (performance.now() - publishedAt) / 1000;
  const deadline = performance.now() + Math.max(120_000, expected * 5);
  while (received.size < expected && performance.now() < deadline) await sleep(20);
  const usage = cpu();
  const seconds = (lastAt - publishedAt) / 1000;
  // Every result written: the last deliveries' rows say delivered.
  const recorded = await until(
    'every delivery recorded',
    async () => {
      const { rows } = await services.pool.query(
        `SELECT count(*) FILTER (WHERE status = 'delivered') AS delivered, count(*) AS planned
           FROM webhooks.deliveries WHERE webhook_id = ANY($1::int[])`,
        [webhookIds],
      );
      return Number(rows[0].delivered) >= received.size
        ? { delivered: Number(rows[0].delivered), planned: Number(rows[0].planned), at: performance.now() }
        : undefined;
    },
    60_000,
  );
  // Row updates per delivery: one claim and one result at the least, more when claimed rows are
  // released again. The dispatcher's sessions report their statistics to PostgreSQL about once a second.
  await sleep(2_000);
  const updatesPerDelivery = ((await rowUpdates()) - updatesBefore) / recorded.planned;
  const all = receivers.flatMap((receiver) => receiver.requests);
  const sample = all.filter((_, index) => index % 20 === 0);
  const invalid = await invalidSignatures(sample, (request) => secrets.get(request.url)!);
  const requests = all.length;
  await Promise.all(receivers.map((receiver) => receiver.close()));
  const deliveriesPerSecond = Math.round(received.size / seconds);
  return {
    webhooks: FANOUT,
    receivers: receivers.length,
    firedAlerts: alerts.length,
    deliveries: expected,
    received: received.size,
    requests,
    duplicateRequests: requests - received.size,
    publishSeconds: round(publishSeconds, 2),
    seconds: round(seconds, 2),
    deliveriesPerSecond,
    fromFirstReceiptPerSecond: Math.round((received.size - 1) / ((lastAt - firstAt) / 1000)),
    firstReceiptAfterPublishMs: round(firstAt - publishedAt),
    allRecordedAfterPublishSeconds: round((recorded.at - publishedAt) / 1000, 2),
    plannedRows: recorded.planned,
    deliveryRowUpdatesPerDelivery: round(updatesPerDelivery, 2),
    signaturesChecked: sample.length,
    invalidSignatures: invalid,
    cpuPercentOfOneCore: usage,
    meetsTarget: received.size === expected && deliveriesPerSecond >= TARGET.deliveriesPerSecond,
  };
}

/** Phase 3: a steady stream to MIX_RECEIVERS receivers, all fast, then with 10% of them hanging. */
async function mixPhase(services: Services) {
  const slowCount = Math.max(1, Math.round(MIX_RECEIVERS / 10));
  log(`phase 3: ${MIX_RATE} alerts/s to ${MIX_RECEIVERS} receivers, then with ${slowCount} of them hanging`);
  await announceConfiguration(services, MIX_CONFIGURATION, MIX_COMPANY);
  const receivers: WebhookReceiver[] = [];
  const secrets: string[] = [];
  const webhookIds: number[] = [];
  for (let index = 0; index < MIX_RECEIVERS; index++) {
    const receiver = await WebhookReceiver.start();
    const webhook = await createWebhook(services, MIX_COMPANY, {
      url: receiver.url('/mix'),
      alertIds: [MIX_CONFIGURATION],
    });
    receivers.push(receiver);
    secrets.push(webhook.secret);
    webhookIds.push(webhook.id);
  }
  const slow = new Set(receivers.slice(0, slowCount));
  let hanging = false;
  /** When each fired alert was handed to the producer, by its key. */
  const publishedAt = new Map<string, number>();
  /** Per healthy receiver, the first receipt of each alert's delivery. */
  const arrivals = receivers.map(() => new Map<string, number>());
  receivers.forEach((receiver, index) =>
    receiver.answer((request): Reply => {
      if (hanging && slow.has(receiver)) return 'hang';
      const key = keyOfBody(request.body);
      if (!arrivals[index].has(key)) arrivals[index].set(key, performance.now());
      return { status: 200 };
    }),
  );

  const run = async (seconds: number, measure: boolean) => {
    const keys: string[] = [];
    const ticksPerSecond = 10;
    const perTick = MIX_RATE / ticksPerSecond;
    const started = performance.now();
    let due = 0;
    let sent = 0;
    for (let tick = 0; tick < seconds * ticksPerSecond; tick++) {
      const wait = started + (tick * 1000) / ticksPerSecond - performance.now();
      if (wait > 0) await sleep(wait);
      due += perTick;
      const alerts: AlertFiredV1[] = [];
      for (; sent < Math.floor(due); sent++) {
        const vehicleId = (sent % VEHICLES) + 1;
        alerts.push(firedAlert(MIX_CONFIGURATION, MIX_COMPANY, vehicleId, nextFixTime(vehicleId)));
      }
      const now = performance.now();
      for (const alert of alerts) {
        const key = alertKeyOf(alert.vehicleId, alert.fixTime);
        publishedAt.set(key, now);
        if (measure) keys.push(key);
      }
      await services.registry.publish(
        Topics.alertsFired,
        alerts.map((payload) => ({ key: String(payload.vehicleId), payload })),
      );
    }
    const healthy = receivers
      .map((receiver, index) => ({ receiver, index }))
      .filter((r) => !slow.has(r.receiver) || !hanging);
    const deadline = performance.now() + 30_000;
    const complete = () => healthy.every(({ index }) => keys.every((key) => arrivals[index].has(key)));
    while (!complete() && performance.now() < deadline) await sleep(50);
    const delays: number[] = [];
    let missing = 0;
    for (const { index } of healthy) {
      for (const key of keys) {
        const arrival = arrivals[index].get(key);
        if (arrival === undefined) missing++;
        else delays.push(arrival - publishedAt.get(key)!);
      }
    }
    return {
      alerts: keys.length,
      healthyReceivers: healthy.length,
      measured: delays.length,
      missing,
      ...summary(delays),
    };
  };

  log('phase 3: warm-up, 5 s');
  await run(5, false);
  log(`phase 3: every receiver fast, ${MIX_SECONDS} s`);
  const meter = () =>
    new CpuMeter({
      'webhook-dispatcher': { pids: () => [services.dispatcher.pid] },
      kafka: { pids: services.kafkaPids },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    }).start();
  const cpuFast = meter();
  const withoutSlow = await run(MIX_SECONDS, true);
  const usageFast = cpuFast();
  hanging = true;
  const slowRequestsBefore = receivers.slice(0, slowCount).reduce((sum, r) => sum + r.requests.length, 0);
  log(`phase 3: ${slowCount} receivers hanging, ${MIX_SECONDS} s`);
  const cpu = meter();
  const withSlow = await run(MIX_SECONDS, true);
  const usage = cpu();
  const slowAttempts =
    receivers.slice(0, slowCount).reduce((sum, r) => sum + r.requests.length, 0) - slowRequestsBefore;
  const { rows } = await services.pool.query(
    `SELECT count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'failed') AS failed
       FROM webhooks.deliveries WHERE webhook_id = ANY($1::int[])`,
    [webhookIds.slice(0, slowCount)],
  );
  let invalid = 0;
  let checked = 0;
  for (const [index, receiver] of receivers.entries()) {
    const sample = receiver.requests.filter((_, n) => n % 10 === 0);
    checked += sample.length;
    invalid += await invalidSignatures(sample, () => secrets[index]);
  }
  await Promise.all(receivers.map((receiver) => receiver.close()));
  return {
    receivers: MIX_RECEIVERS,
    slowReceivers: slowCount,
    slowReceiverAnswer: 'none (the dispatcher times each attempt out after 5 s)',
    alertsPerSecond: MIX_RATE,
    deliveriesPerSecond: MIX_RATE * MIX_RECEIVERS,
    seconds: MIX_SECONDS,
    measuredFrom: 'the fired alert handed to the Kafka producer',
    measuredTo: "the delivery's body complete at a healthy receiver",
    healthyWithoutSlowMs: withoutSlow,
    healthyWithSlowMs: withSlow,
    slowAttemptsMade: slowAttempts,
    slowDeliveriesAtEnd: { pending: Number(rows[0].pending), failed: Number(rows[0].failed) },
    signaturesChecked: checked,
    invalidSignatures: invalid,
    cpuPercentOfOneCore: { withoutSlow: usageFast, withSlow: usage },
    meetsTarget:
      withSlow.missing === 0 &&
      withoutSlow.missing === 0 &&
      // "Keep their p99": within the run-to-run spread of a shared 2-core machine, taken as 1.5× or +25 ms.
      withSlow.p99 <= Math.max(withoutSlow.p99 * 1.5, withoutSlow.p99 + 25),
  };
}

/** A phase's figures without its verdict, which goes to `meetsTargets`. */
function withoutVerdict<T extends { meetsTarget: boolean }>({ meetsTarget: _, ...figures }: T) {
  return figures;
}

async function main(): Promise<void> {
  const calibration = calibrate();
  const kafka = ensureKafka();
  const database = await createBenchDatabase();
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const jwtSecret = randomUUID() + randomUUID();
  const env = {
    DATABASE_URL: database.url,
    KAFKA_BROKERS: kafka.brokers,
    KAFKA_NAMESPACE: namespace,
    AUTH_JWT_SECRET: jwtSecret,
    RATE_LIMIT_STORE: 'memory',
  };
  const client = new Kafka({
    clientId: 'bench',
    brokers: kafka.brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const producer = client.producer({ idempotent: true });
  const pool = new Pool({ connectionString: database.url, max: 2 });
  const all: ServiceProcess[] = [];
  try {
    await producer.connect();
    const dispatcher = await ServiceProcess.start('webhook-dispatcher', {
      ...env,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
      // The bench creates its webhooks in a burst.
      RATE_LIMIT_DEFAULT: 'second=100000',
    });
    all.push(dispatcher);
    const services: Services = {
      env,
      jwtSecret,
      pool,
      registry: new KafkaEventPublisher(producer, namespace),
      dispatcher,
      kafkaPids: kafka.pids,
      kafka: client,
      namespace,
      all,
    };
    await services.registry.publish(
      Topics.companySnapshots,
      [LATENCY_COMPANY, THROUGHPUT_COMPANY, MIX_COMPANY].map((companyId) => ({
        key: String(companyId),
        payload: benchCompany(companyId),
      })),
    );

    const latency = PHASES.has('latency') ? await latencyPhase(services) : undefined;
    if (latency)
      log(
        `accepted to delivered: p50 ${latency.acceptedToReceivedMs.p50} ms, p99 ${latency.acceptedToReceivedMs.p99} ms`,
      );
    const throughput = PHASES.has('throughput') ? await throughputPhase(services) : undefined;
    if (throughput) log(`${throughput.deliveriesPerSecond} deliveries/s`);
    const mix = PHASES.has('mix') ? await mixPhase(services) : undefined;

    const result = {
      bench: 'webhooks',
      machine: machineFacts(calibration),
      config: {
        mode: 'distributed',
        transport: 'kafka',
        vehicles: VEHICLES,
        pacedRate: RATE,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        deliveries: DELIVERIES,
        fanout: FANOUT,
        throughputReceivers: THROUGHPUT_RECEIVERS,
        mixReceivers: MIX_RECEIVERS,
        mixAlertsPerSecond: MIX_RATE,
        mixSeconds: MIX_SECONDS,
        dispatcherSettings: 'defaults: WEBHOOK_MAX_CONCURRENCY 256, WEBHOOK_MAX_PER_ENDPOINT 32',
      },
      latency: latency && withoutVerdict(latency),
      throughput: throughput && withoutVerdict(throughput),
      mix: mix && withoutVerdict(mix),
      peakRssMb: { ...latency?.peakRssMb, 'webhook-dispatcher': dispatcher.peakRssMb() },
      targets: { ...TARGET, mix: 'the healthy receivers keep their p99 with 10% of receivers timing out' },
      meetsTargets: {
        p99AlertToDelivery: latency?.meetsTarget,
        throughput: throughput?.meetsTarget,
        mix: mix?.meetsTarget,
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await pool.end();
    await producer.disconnect().catch(() => undefined);
    await Promise.all(all.map((service) => service.stop()));
    await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
