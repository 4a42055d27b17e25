/**
 * Phase 2 of bench/alerts: telemetry-ingest and query-api join alert-engine, and batches of 100
 * positions go to the batch endpoint at a steady RATE; in each batch one vehicle goes above its
 * maximum speed, and the delay from the batch's 200 until that overspeed record is in alert-engine's
 * table is measured.
 */
import { namespaced } from '@fleet/platform';
import { CpuMeter } from '../common/cpu-meter';
import { HttpClient } from '../common/http-load';
import { log, percentile, round, ServiceProcess, sleep } from '../common/infra';
import { pacedBatches } from '../common/paced-batches';
import { countRows } from '../common/tables.queries';
import { benchToken } from '../common/tenant';
import { lastRecordId, overspeedRecordsAfter } from './alerts.queries';
import { HOLDING, VEHICLES } from './fleet-model';
import { BATCH, committed, nextFix, RATE, SECONDS, TARGET, WARMUP_SECONDS } from './harness';
import { AlertsRun, positionsTopicOf } from './throughput-phase';

/** Batch `k`: 100 vehicles, one of them above every overspeed maximum (its next batch is not). */
function batchOf(k: number) {
  const trigger = Math.floor(k / 10) % BATCH;
  return Array.from({ length: BATCH }, (_, slot) => {
    const vehicleId = ((k * BATCH) % VEHICLES) + slot + 1;
    const fix = nextFix(vehicleId);
    return {
      vehicleId,
      fixTime: fix.fixTime,
      trigger: slot === trigger,
      body: {
        deviceId: fix.imei,
        timestamp: fix.fixTime,
        lat: fix.lat,
        lon: fix.lng,
        speedKmh: slot === trigger ? 150 : 60,
        course: fix.course,
        ignition: true,
        powerV: 12.6,
        rpm: 2_000,
        coolantTempC: 90,
      },
    };
  });
}
type Batch = ReturnType<typeof batchOf>;

/** telemetry-ingest and query-api join; query-api catches up with the `end` positions of phase 1. */
async function joinServices(run: AlertsRun, end: number) {
  log('phase 2: telemetry-ingest and query-api join; waiting for query-api to catch up');
  const ingest = await ServiceProcess.start('telemetry-ingest', run.bench.env);
  run.all.push(ingest);
  const queryApi = await ServiceProcess.start('query-api', run.bench.env);
  run.all.push(queryApi);
  const queryGroup = namespaced(run.bench, 'query-api');
  while ((await committed(run.admin, queryGroup, positionsTopicOf(run))) < end) await sleep(500);
  while ((await countRows(run.bench.pool, 'ingest.device_sessions')) < VEHICLES) await sleep(200);
  return { ingest, queryApi };
}

/** Sends batches to ingest's batch endpoint, once it takes the bench's token. */
async function batchSender(run: AlertsRun, ingest: ServiceProcess) {
  const http = new HttpClient(ingest.baseUrl, 32);
  const authorization = `Bearer ${benchToken(run.bench.jwtSecret, HOLDING, ['positions:write'])}`;
  const send = (positions: Batch) =>
    http.send('POST', '/ingest/v1/positions', JSON.stringify({ positions: positions.map((p) => p.body) }), {
      'content-type': 'application/json',
      authorization,
    });
  for (
    const deadline = performance.now() + 60_000;
    (await send(batchOf(0))).status !== 200;
    await sleep(200)
  ) {
    if (performance.now() > deadline) throw new Error('the batch endpoint refused the bench token for 60 s');
  }
  return { send, close: () => http.close() };
}

/**
 * Watches alert-engine's overspeed records: each one expected (`expect`, from its batch's 200) gives
 * a delay; one seen before its batch's answer reached the bench (its event loop was busy) gives 0.
 */
async function recordWatch(run: AlertsRun) {
  let lastId = await lastRecordId(run.bench.pool);
  const outstanding = new Map<string, number>();
  const seenEarly = new Set<string>();
  const delays: number[] = [];
  let sending = true;
  let stoppedAt = 0;
  const poller = (async () => {
    while (sending || outstanding.size) {
      const rows = await overspeedRecordsAfter(run.bench.pool, lastId);
      const now = performance.now();
      for (const row of rows) {
        lastId = Math.max(lastId, Number(row.id));
        const key = `${row.vehicle_id}@${row.utc_time.toISOString()}`;
        const acceptedAt = outstanding.get(key);
        if (acceptedAt !== undefined) {
          delays.push(now - acceptedAt);
          outstanding.delete(key);
        } else {
          seenEarly.add(key);
        }
      }
      if (!sending && performance.now() - stoppedAt > 30_000) break;
      await sleep(10);
    }
  })();
  return {
    delays,
    outstanding,
    expect: (key: string) => {
      if (seenEarly.delete(key)) delays.push(0);
      else outstanding.set(key, performance.now());
    },
    /** Waits for the records still expected, for up to 30 s. */
    finish: async () => {
      sending = false;
      stoppedAt = performance.now();
      await poller;
    },
  };
}

/** `seconds` of batches at RATE from batch `firstBatch`; with `measure`, each trigger's delay to its record. */
async function paced(
  run: AlertsRun,
  send: (batch: Batch) => ReturnType<HttpClient['send']>,
  seconds: number,
  firstBatch: number,
  measure: boolean,
) {
  const watch = await recordWatch(run);
  const sent = await pacedBatches({
    batchesPerSecond: RATE / BATCH,
    seconds,
    firstBatch,
    batchOf,
    send,
    onAccepted: (positions) => {
      const trigger = positions.find((p) => p.trigger)!;
      if (measure) watch.expect(`${trigger.vehicleId}@${trigger.fixTime}`);
    },
  });
  await watch.finish();
  const delays = watch.delays.sort((a, b) => a - b);
  return {
    delays,
    ...sent,
    missing: watch.outstanding.size,
    missingExamples: [...watch.outstanding.keys()].slice(0, 5),
  };
}

/** Phase 2, after phase 1 consumed `end` positions with `engine`: its figures and its verdict. */
export async function latencyPhase(run: AlertsRun, engine: ServiceProcess, end: number) {
  const { ingest, queryApi } = await joinServices(run, end);
  const sender = await batchSender(run, ingest);
  log(`warm-up: ${RATE} positions/s for ${WARMUP_SECONDS} s, not measured`);
  await paced(run, sender.send, WARMUP_SECONDS, 1, false);
  log(`phase 2: ${RATE} positions/s for ${SECONDS} s, measuring acceptance to record`);
  const cpu = new CpuMeter({
    'alert-engine': { pids: () => [engine.pid] },
    'telemetry-ingest': { pids: () => [ingest.pid] },
    'query-api': { pids: () => [queryApi.pid] },
    kafka: { pids: run.bench.kafka.pids },
    postgres: { command: 'postgres' },
    bench: { pids: () => [process.pid] },
  }).start();
  const latency = await paced(run, sender.send, SECONDS, 1 + WARMUP_SECONDS * (RATE / BATCH), true);
  const usage = cpu();
  sender.close();
  return {
    figures: {
      offeredPerSecond: RATE,
      achievedPerSecond: Math.round(((latency.batches - latency.failed) * BATCH) / latency.sentSeconds),
      failedBatches: latency.failed,
      failures: latency.failures,
      measured: latency.delays.length,
      neverSeen: latency.missing,
      neverSeenExamples: latency.missingExamples,
      acceptedToRecordMs: {
        p50: round(percentile(latency.delays, 50)),
        p99: round(percentile(latency.delays, 99)),
        max: round(latency.delays[latency.delays.length - 1] ?? 0),
      },
      cpuPercentOfOneCore: usage,
    },
    meetsTarget: latency.missing === 0 && percentile(latency.delays, 99) <= TARGET.p99DelayMs,
  };
}
