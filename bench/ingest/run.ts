/**
 * bench/ingest: end-to-end ingestion in the distributed mode (telemetry-ingest and query-api as
 * separate processes, real Kafka, real PostgreSQL) with 1,000 simulated vehicles.
 *
 *   1. batch endpoint: closed-loop batches of 500 positions; accepted/s, and end to end (accepted until
 *      stored in history and last position);
 *   2. single OsmAnd GET reports: requests/s, and end to end;
 *   3. paced at 5,000 positions/s: delay from acceptance (the 200) until the position is visible in
 *      the query projections, p50/p99;
 *   and each service's peak resident memory over the run.
 *
 * Before phase 1, `--warmup` seconds (default 30) of batches and as many of single reports run unmeasured:
 * the broker's JVM and the services' JIT compilers start cold, and a production system is measured warm.
 *
 * Phase 2 runs `--trackers` connections (default 64), each sending its next report as soon as the last
 * was answered; more trackers trade latency for throughput (docs/performance.md has a sweep).
 *
 * `--embedded` measures the embedded app instead (`apps/fleet`, as `npm start` runs it: one process, the
 * in-process transport, its own PostgreSQL in a fresh data directory under .data/, no demo tenant or
 * simulator). Its 1,000 vehicles are registered through query-api's registry (the admin CLI's way),
 * whose outbox the running app relays; no Kafka is started.
 *
 * `--tracing` turns OpenTelemetry on in the services (docs/tracing.md): they export every span by
 * OTLP/HTTP to a sink this bench runs, which reads and discards them; the result counts what arrived.
 * Without it, OTEL_EXPORTER_OTLP_ENDPOINT is unset for the services whatever the environment says.
 *
 * `--kafka-client platformatic` runs the services on @platformatic/kafka (KAFKA_CLIENT; decision 0017).
 *
 * `--phases single` (any of batch,single,paced; default all three) runs only those phases, and warms
 * up only the shapes they send; the JSON then has only their sections.
 *
 * Usage: npm run bench:ingest [-- --seconds 20 --warmup 10 --trackers 64 --embedded --tracing]. Prints
 * one JSON document on stdout.
 */
// First: the contracts' class-transformer decorators read design types when they are loaded.
import 'reflect-metadata';
import { CpuMeter } from '../common/cpu-meter';
import {
  calibrate,
  kafkaClientFlag,
  log,
  machineFacts,
  numberFlag,
  round,
  setFlag,
  sleep,
} from '../common/infra';
import { countRows } from '../common/tables.queries';
import { lastPositionUpdates } from './ingest.queries';
import { BATCH_SIZE, fleetLoad } from './load';
import { closedPhase, pacedPhase, warmUp } from './phases';
import { distributedSetup, embeddedSetup, SinkCounts, startTraceSink, VEHICLES } from './setup';

const TARGET = {
  batchPositionsPerSecond: 10_000,
  singleRequestsPerSecond: 3_000,
  p99DelayMs: 1_000,
  peakRssMb: 250,
};

const SECONDS = numberFlag('seconds', 20);
const WARMUP_SECONDS = numberFlag('warmup', 30);
const TRACKERS = numberFlag('trackers', 64);
const EMBEDDED = process.argv.includes('--embedded');
const TRACING = process.argv.includes('--tracing');
const PHASES = setFlag('phases', ['batch', 'single', 'paced']);

type Closed = Awaited<ReturnType<typeof closedPhase>>;

/** What a run measured, for its JSON document (a phase left out by `--phases` is undefined). */
interface Measured {
  calibration: ReturnType<typeof calibrate>;
  sink?: { counts: SinkCounts };
  memory: Record<string, number>;
  batch?: Closed;
  singles?: Closed;
  paced?: Awaited<ReturnType<typeof pacedPhase>>;
  updates: Awaited<ReturnType<typeof lastPositionUpdates>>;
}

function resultOf({ calibration, sink, memory, batch, singles, paced, updates }: Measured) {
  const batchEndToEnd = batch && Math.round(batch.accepted / batch.endToEndS);
  const singlesPerSecond = singles && Math.round(singles.accepted / singles.loop.seconds);
  return {
    bench: 'ingest',
    machine: machineFacts(calibration),
    config: {
      kafkaClient: kafkaClientFlag(),
      vehicles: VEHICLES,
      batchSize: BATCH_SIZE,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      singleReportTrackers: TRACKERS,
      phases: [...PHASES],
      transport: EMBEDDED ? 'in-process (embedded app)' : 'kafka',
      tracing: sink
        ? {
            on: true,
            sampler: process.env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
            samplerArg: process.env.OTEL_TRACES_SAMPLER_ARG,
            otlpExports: sink.counts.exports,
            otlpMb: round(sink.counts.bytes / 2 ** 20),
          }
        : { on: false },
      services: Object.keys(memory),
    },
    batch: batch && {
      accepted: batch.accepted,
      acceptedPerSecond: Math.round(batch.accepted / batch.loop.seconds),
      endToEndPerSecond: batchEndToEnd,
      requestLatencyMs: batch.loop.latencyMs,
      failedRequests: batch.loop.failed,
      cpuPercentOfOneCore: batch.cpu,
    },
    singleOsmAnd: singles && {
      accepted: singles.accepted,
      requestsPerSecond: singlesPerSecond,
      endToEndPerSecond: Math.round(singles.accepted / singles.endToEndS),
      requestLatencyMs: singles.loop.latencyMs,
      failedRequests: singles.loop.failed,
      cpuPercentOfOneCore: singles.cpu,
    },
    pacedVisibility: paced?.figures,
    lastPositionUpdates: {
      updates: Number(updates.updates),
      hot: Number(updates.hot),
      tableMb: round(Number(updates.bytes) / 2 ** 20),
    },
    peakRssMb: memory,
    targets: TARGET,
    meetsTargets: {
      batch: batchEndToEnd === undefined ? undefined : batchEndToEnd >= TARGET.batchPositionsPerSecond,
      singleOsmAnd:
        singlesPerSecond === undefined ? undefined : singlesPerSecond >= TARGET.singleRequestsPerSecond,
      p99Delay: paced && paced.p99 <= TARGET.p99DelayMs,
      memory: Object.values(memory).every((mb) => mb <= TARGET.peakRssMb),
    },
  };
}

async function main(): Promise<void> {
  const calibration = calibrate();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const sink = TRACING ? await startTraceSink() : undefined;
  const setup = EMBEDDED ? await embeddedSetup() : await distributedSetup(calibration);
  const { ingest, services, pool } = setup;
  try {
    const cpu = new CpuMeter(setup.cpuGroups);
    const authorization = await setup.registerFleet();
    while ((await countRows(pool, 'ingest.device_sessions')) < VEHICLES) await sleep(200);
    log(`${VEHICLES} vehicles registered`);
    const load = fleetLoad(ingest, pool, authorization);
    await warmUp(load, WARMUP_SECONDS, TRACKERS, {
      batches: PHASES.has('batch') || PHASES.has('paced'),
      singles: PHASES.has('single'),
    });

    let batch: Closed | undefined;
    if (PHASES.has('batch')) {
      log(`phase 1: batches of ${BATCH_SIZE} for ${SECONDS} s`);
      batch = await closedPhase(load, cpu, {
        concurrency: 8,
        seconds: SECONDS,
        perRequest: BATCH_SIZE,
        send: load.sendBatch,
      });
    }
    load.closeBatches();
    let singles: Closed | undefined;
    if (PHASES.has('single')) {
      log(`phase 2: single OsmAnd reports for ${SECONDS} s`);
      singles = await closedPhase(load, cpu, {
        concurrency: TRACKERS,
        seconds: SECONDS,
        perRequest: 1,
        send: load.sendSingle,
      });
    }
    load.closeSingles();
    let paced: Awaited<ReturnType<typeof pacedPhase>> | undefined;
    if (PHASES.has('paced')) {
      log(`phase 3: 5,000 positions/s for ${SECONDS} s, measuring the delay to visibility`);
      paced = await pacedPhase(load, cpu, { ingest, pool, authorization }, SECONDS);
    }

    const memory = Object.fromEntries(services.map((service) => [service.app, service.peakRssMb()]));
    // How many last-position updates were HOT (no new index entries; migrations/1764200000000-*).
    const updates = await lastPositionUpdates(pool);
    const result = resultOf({ calibration, sink, memory, batch, singles, paced, updates });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await setup.stop();
    sink?.server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
