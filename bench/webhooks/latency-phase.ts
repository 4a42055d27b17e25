/**
 * Phase 1 of bench/webhooks: position accepted by telemetry-ingest → overspeed record in alert-engine
 * → fired alert → delivery received, at a steady rate of positions. In steps: the services join, the
 * bench listens (the configuration, its webhook, the fired alerts on Kafka), the paced load runs, and
 * the arrivals are matched with what the tables and the broker recorded.
 */
import { Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import { WebhookReceiver } from '@fleet/testing';
import { CpuMeter } from '../common/cpu-meter';
import { HttpClient } from '../common/http-load';
import { log, ServiceProcess, sleep, until } from '../common/infra';
import { pacedBatches } from '../common/paced-batches';
import { recordTimes } from '../common/record-times';
import { benchToken } from '../common/tenant';
import {
  alertKeyOf,
  createWebhook,
  created,
  CreatedWebhook,
  imeiOf,
  invalidSignatures,
  keyOfBody,
  nextFixTime,
  clock,
  Services,
  summary,
  waitForProjection,
} from './harness';
import {
  BATCH,
  LATENCY_COMPANY,
  MAX_SPEED_KMH,
  RATE,
  SECONDS,
  TARGET,
  VEHICLES,
  WARMUP_SECONDS,
} from './options';

/** The services phase 1 adds to the dispatcher, once they know the company's vehicles. */
async function joinServices(services: Services) {
  log('phase 1: telemetry-ingest, query-api and alert-engine join');
  const [engine, ingest, queryApi] = await Promise.all([
    ServiceProcess.start('alert-engine', services.env),
    ServiceProcess.start('telemetry-ingest', services.env),
    ServiceProcess.start('query-api', services.env),
  ]);
  services.all.push(engine, ingest, queryApi);
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
    (await services.queries.alertEngineVehicles()) === VEHICLES &&
    (await services.queries.ingestDeviceSessions()) === VEHICLES
      ? true
      : undefined,
  );
  return { engine, ingest, queryApi };
}

/**
 * The overspeed configuration (through alert-engine's route) and its webhook at a local receiver;
 * when each delivery arrived, and when each fired alert reached Kafka.
 */
async function listenForDeliveries(services: Services, engine: ServiceProcess) {
  const configuration = await created<{ id: number }>(
    `${engine.baseUrl}/v2/api/companies/${LATENCY_COMPANY}/alerts`,
    benchToken(services.jwtSecret, LATENCY_COMPANY, ['alerts:write']),
    { name: 'Speeding', alertTypeId: 10, settings: { maxSpeedKmh: MAX_SPEED_KMH } },
  );
  await waitForProjection(services, configuration.id);
  // When each fired alert reached Kafka (its record timestamp, set by alert-engine's relay), for the
  // breakdown of the delay.
  const fired = await recordTimes(services.kafka, services.namespace, {
    topic: Topics.alertsFired,
    group: 'bench-fired',
    keyOf: (alert) => alertKeyOf(alert.vehicleId, new Date(alert.fixTime).toISOString()),
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
  return { fired, receiver, arrivals, webhook, duplicates: () => duplicates };
}

/** Batches of positions to ingest's batch endpoint, one overspeed position in each, at RATE. */
async function positionLoad(services: Services, ingest: ServiceProcess) {
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
    const sent = await pacedBatches({
      batchesPerSecond: RATE / BATCH,
      seconds,
      firstBatch,
      batchOf,
      send,
      onAccepted: (positions, sentAt) =>
        triggers.push({ key: positions.find((p) => p.trigger)!.key, sentAt, acceptedAt: performance.now() }),
    });
    return { triggers, ...sent };
  };
  return { paced, close: () => http.close() };
}

type PacedRun = Awaited<ReturnType<Awaited<ReturnType<typeof positionLoad>>['paced']>>;

/** Accepted (and sent) to received per trigger, and the triggers whose delivery never came. */
function deliveryDelays(run: PacedRun, arrivals: Map<string, number>) {
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
  return { accepted, sent, missing };
}

/** Each overspeed record's created_at, by alert key: its transaction's start in PostgreSQL's clock (the same machine's). */
async function recordCreatedAt(services: Services): Promise<Map<string, number>> {
  const records = await services.queries.overspeedRecords();
  return new Map(
    records.map((row) => [alertKeyOf(row.vehicle_id, row.utc_time.toISOString()), row.created_at.getTime()]),
  );
}

/**
 * Where the time went: record → fired alert on Kafka → delivery planned → attempt started → received
 * (epoch milliseconds; PostgreSQL's, the broker's and the processes' clocks are the machine's).
 */
async function breakdownOf(
  services: Services,
  run: PacedRun,
  seen: { arrivals: Map<string, number>; firedAt: Map<string, number>; createdAt: Map<string, number> },
  webhook: CreatedWebhook,
) {
  const planned = await services.queries.firstAttempts(webhook.id);
  const plannedOf = new Map(planned.map((row) => [keyOfBody(row.body), row]));
  const steps = {
    recordToFired: [] as number[],
    firedToPlanned: [] as number[],
    plannedToAttempt: [] as number[],
    attemptToReceived: [] as number[],
  };
  for (const trigger of run.triggers) {
    const [recorded, fired, row, arrival] = [
      seen.createdAt.get(trigger.key),
      seen.firedAt.get(trigger.key),
      plannedOf.get(trigger.key),
      seen.arrivals.get(trigger.key),
    ];
    if (recorded === undefined || fired === undefined || !row || arrival === undefined) continue;
    steps.recordToFired.push(fired - recorded);
    steps.firedToPlanned.push(row.created_at.getTime() - fired);
    steps.plannedToAttempt.push(row.started_at.getTime() - row.created_at.getTime());
    steps.attemptToReceived.push(performance.timeOrigin + arrival - row.started_at.getTime());
  }
  return steps;
}

export async function latencyPhase(services: Services) {
  const { engine, ingest, queryApi } = await joinServices(services);
  const { fired, receiver, arrivals, webhook, duplicates } = await listenForDeliveries(services, engine);
  const load = await positionLoad(services, ingest);

  log(`warm-up: ${RATE} positions/s for ${WARMUP_SECONDS} s, not measured`);
  await load.paced(WARMUP_SECONDS, 1);
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
  const run = await load.paced(SECONDS, 1 + WARMUP_SECONDS * (RATE / BATCH));
  const usage = cpu();
  // Deliveries still on their way when the last batch was answered.
  const deadline = performance.now() + 30_000;
  while (run.triggers.some((t) => !arrivals.has(t.key)) && performance.now() < deadline) await sleep(20);
  load.close();

  const { accepted, sent, missing } = deliveryDelays(run, arrivals);
  const createdAt = await recordCreatedAt(services);
  const fromRecord: number[] = [];
  for (const trigger of run.triggers) {
    const arrival = arrivals.get(trigger.key);
    const recorded = createdAt.get(trigger.key);
    if (arrival !== undefined && recorded !== undefined)
      fromRecord.push(performance.timeOrigin + arrival - recorded);
  }
  const steps = await breakdownOf(services, run, { arrivals, firedAt: fired.at, createdAt }, webhook);
  await fired.stop();
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
    duplicateDeliveries: duplicates(),
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
