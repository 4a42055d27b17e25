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
 * Usage: npm run bench:ingest [-- --seconds 20 --warmup 10 --trackers 64 --embedded --tracing]. Prints
 * one JSON document on stdout.
 */
// First: the contracts' class-transformer decorators read design types when they are loaded.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Topics } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { closedLoop, HttpClient, RawHttpClient } from '../common/http-load';
import {
  createBenchDatabase,
  deleteNamespaceTopics,
  ensureKafka,
  kafkaClientFlag,
  log,
  percentile,
  round,
  ServiceProcess,
  sleep,
  numberFlag,
  calibrate,
  machineFacts,
  freePort,
  repoRoot,
} from '../common/infra';
import { CpuMeter } from '../common/cpu-meter';
import { benchCompany, benchToken, benchVehicle, publishVehicles } from '../common/tenant';
import { countRows } from '../common/tables.queries';
import { lastFixTimes, lastPositionUpdates } from './ingest.queries';

const VEHICLES = 1_000;
const BATCH_SIZE = 500;
/** The company owning the bench's vehicles. */
const FLEET_COMPANY = 1;
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

/** What the OTLP sink received: export requests and their bytes. */
interface SinkCounts {
  exports: number;
  bytes: number;
}

/**
 * A local OTLP/HTTP endpoint that accepts every export and keeps nothing: the services pay for
 * creating, batching and sending their spans, as with a real collector, and no collector's CPU is
 * counted. Sets OTEL_EXPORTER_OTLP_ENDPOINT for the services this bench starts.
 */
async function startTraceSink(): Promise<{ server: Server; counts: SinkCounts }> {
  const counts: SinkCounts = { exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (counts.bytes += chunk.length));
    request.on('end', () => {
      counts.exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, counts };
}

const imeiOf = (index: number) => `35${String(index).padStart(13, '0')}`;

/** What a phase measures: the processes that serve ingestion, and the database they write to. */
interface Setup {
  databaseUrl: string;
  /** telemetry-ingest's HTTP and device ports (the fleet app's in embedded mode). */
  ingest: ServiceProcess;
  services: ServiceProcess[];
  cpuGroups: ConstructorParameters<typeof CpuMeter>[0];
  /**
   * Makes the fleet's company and its 1,000 vehicles known to ingest (device sessions) and query-api;
   * resolves to the Authorization header of a token granted positions:write for that company.
   */
  registerFleet(): Promise<string>;
  stop(): Promise<void>;
}

/** telemetry-ingest and query-api as processes, on Kafka; the bench plays the vehicle registry. */
async function distributedSetup(): Promise<Setup> {
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
    GEOCODER_PROVIDER: 'none',
    KAFKA_CLIENT: kafkaClientFlag(),
  };
  const services: ServiceProcess[] = [];
  const producer = new Kafka({
    clientId: 'bench',
    brokers: kafka.brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).producer({ idempotent: true });
  const stop = async () => {
    await producer.disconnect().catch(() => undefined);
    await Promise.all(services.map((service) => service.stop()));
    await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  };
  try {
    services.push(await ServiceProcess.start('telemetry-ingest', env));
    services.push(await ServiceProcess.start('query-api', env));
  } catch (error) {
    await stop();
    throw error;
  }
  const [ingest, queryApi] = services;
  return {
    databaseUrl: database.url,
    ingest,
    services,
    cpuGroups: {
      'telemetry-ingest': { pids: () => [ingest.pid] },
      'query-api': { pids: () => [queryApi.pid] },
      kafka: { pids: kafka.pids },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    },
    registerFleet: async () => {
      // The bench plays auth and the vehicle registry: the company and its vehicles on their topics.
      await producer.connect();
      const registry = new KafkaEventPublisher(producer, namespace);
      await registry.publish(Topics.companySnapshots, [
        { key: String(FLEET_COMPANY), payload: benchCompany(FLEET_COMPANY) },
      ]);
      await publishVehicles(
        registry,
        Array.from({ length: VEHICLES }, (_, index) =>
          benchVehicle(index + 1, imeiOf(index + 1), [FLEET_COMPANY]),
        ),
      );
      return `Bearer ${benchToken(jwtSecret, FLEET_COMPANY, ['positions:write'])}`;
    },
    stop,
  };
}

/** The embedded app (`npm start`) on a fresh data directory: its own PostgreSQL, in-process transport. */
async function embeddedSetup(): Promise<Setup> {
  mkdirSync(join(repoRoot, '.data'), { recursive: true });
  const dataDir = mkdtempSync(join(repoRoot, '.data/bench-embedded-'));
  const port = await freePort();
  let fleet: ServiceProcess | undefined;
  const stop = async () => {
    // SIGTERM: the app stops its PostgreSQL after the services.
    await fleet?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    fleet = await ServiceProcess.start(
      'fleet',
      {
        FLEET_DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(port),
        FLEET_DEMO: 'false',
        FLEET_SIMULATOR: 'false',
        RATE_LIMIT_STORE: 'memory',
        GEOCODER_PROVIDER: 'none',
        // Unset, whatever the bench's environment says: the embedded defaults are measured.
        DATABASE_URL: '',
        MESSAGING_TRANSPORT: '',
        KAFKA_BROKERS: '',
        AUTH_JWT_SECRET: '',
      },
      undefined,
      { asDeployed: false },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const app = fleet;
  const password = encodeURIComponent(readFileSync(join(dataDir, 'postgres.password'), 'utf8').trim());
  const databaseUrl = `postgres://fleet:${password}@127.0.0.1:${port}/fleet`;
  return {
    databaseUrl,
    ingest: app,
    services: [app],
    cpuGroups: {
      fleet: { pids: () => [app.pid] },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    },
    registerFleet: async () => {
      // As `npm run admin` does: the running app relays auth's and query-api's outboxes.
      const connect = (schema: typeof querySchema) =>
        new DataSource(
          dataSourceOptions(schema, { url: databaseUrl, migrateOnStart: false, poolSize: 2 }, 'bench'),
        ).initialize();
      const authSource = await connect(authSchema);
      const dataSource = await connect(querySchema);
      try {
        const auth = createAuthAdmin(authSource);
        const company = await auth.companies.create({
          name: 'Bench',
          parentId: null,
          timeZone: 'Europe/Berlin',
        });
        const { key } = await auth.apiKeys.create({
          companyId: company.id,
          label: 'bench',
          actions: ['positions:write'],
        });
        const registry = createRegistryAdmin(dataSource).vehicles;
        for (let index = 1; index <= VEHICLES; index++) {
          const vehicle = await registry.register({
            name: `Bench ${index}`,
            imei: imeiOf(index),
            companyIds: [company.id],
          });
          if (vehicle.id !== index)
            throw new Error(`vehicle ${index} got id ${vehicle.id}: not a fresh database`);
        }
        const issued = await fetch(`${app.baseUrl}/v2/api/authentication/token/api-key`, {
          method: 'POST',
          body: new URLSearchParams({ apiKey: key }),
        });
        if (issued.status !== 200) throw new Error(`bench token: ${issued.status} ${await issued.text()}`);
        return `Bearer ${((await issued.json()) as { access_token: string }).access_token}`;
      } finally {
        await dataSource.destroy();
        await authSource.destroy();
      }
    },
    stop,
  };
}

async function main(): Promise<void> {
  const calibration = calibrate();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const sink = TRACING ? await startTraceSink() : undefined;
  const setup = EMBEDDED ? await embeddedSetup() : await distributedSetup();
  const { ingest, services } = setup;
  const pool = new Pool({ connectionString: setup.databaseUrl, max: 2 });
  try {
    const cpu = new CpuMeter(setup.cpuGroups);

    const authorization = await setup.registerFleet();
    while ((await countRows(pool, 'ingest.device_sessions')) < VEHICLES) await sleep(200);
    log(`${VEHICLES} vehicles registered`);

    // Every vehicle's fixes advance one second at a time, so each is new to history.
    // Each vehicle drives north at ~7 km/h from its own start, one fix a second: a continuous track, so
    // that telemetry-ingest's dirty-data rules (impossible speed) refuse none of it.
    const trackStart = Math.floor(Date.now() / 1000) - 6 * 3600;
    const clock = new Array<number>(VEHICLES + 1).fill(trackStart);
    let nextVehicle = 0;
    const nextFix = () => {
      const vehicle = (nextVehicle++ % VEHICLES) + 1;
      const t = ++clock[vehicle];
      return {
        vehicle,
        t,
        lat: 52.3 + (vehicle % 100) / 200 + (t - trackStart) / 60_000,
        lon: 13.1 + Math.floor(vehicle / 100) / 20,
      };
    };
    const stored = () => countRows(pool, 'query.positions');
    const waitStored = async (expected: number, since: number) => {
      for (;;) {
        const n = await stored();
        if (n >= expected) return (performance.now() - since) / 1000;
        if (performance.now() - since > 300_000) throw new Error(`only ${n} of ${expected} positions stored`);
        await sleep(100);
      }
    };

    // 1. Batches.
    const batchClient = new HttpClient(ingest.baseUrl, 8);
    const batchBody = () =>
      JSON.stringify({
        positions: Array.from({ length: BATCH_SIZE }, () => {
          const fix = nextFix();
          return {
            deviceId: imeiOf(fix.vehicle),
            timestamp: new Date(fix.t * 1000).toISOString(),
            lat: fix.lat,
            lon: fix.lon,
            speedKmh: 42,
            course: 90,
            ignition: true,
            satellites: 9,
          };
        }),
      });
    const sendBatch = async () => {
      const response = await batchClient.send('POST', '/ingest/v1/positions', batchBody(), {
        'content-type': 'application/json',
        authorization,
      });
      return response.status;
    };
    const deviceClient = new RawHttpClient(ingest.deviceUrl);
    const sendSingle = async () => {
      const fix = nextFix();
      const answer = await deviceClient.get(
        `/?id=${imeiOf(fix.vehicle)}&timestamp=${fix.t}&lat=${fix.lat}&lon=${fix.lon}&speed=22.7&bearing=90&ignition=true&sat=9`,
      );
      return answer.status;
    };
    // The token's company reaches ingest's company projection on its own topic: wait for it.
    for (const deadline = performance.now() + 60_000; (await sendBatch()) !== 200; await sleep(200)) {
      if (performance.now() > deadline)
        throw new Error('the batch endpoint refused the bench token for 60 s');
    }
    if (WARMUP_SECONDS > 0) {
      // Both shapes of load: the broker's JIT compiles the paths of small produce and fetch requests
      // separately from those of large ones, and compiling them cost it ~40% of a core well into a
      // measured phase that came first with only batches warmed (docs/performance.md).
      log(`warm-up: batches, then single reports, ${WARMUP_SECONDS} s each, not measured`);
      const warmBatches = await closedLoop(8, WARMUP_SECONDS * 1000, sendBatch);
      const warmSingles = await closedLoop(TRACKERS, WARMUP_SECONDS * 1000, sendSingle);
      await waitStored(warmBatches.ok * BATCH_SIZE + warmSingles.ok, performance.now());
    }

    log(`phase 1: batches of ${BATCH_SIZE} for ${SECONDS} s`);
    let cpuOfPhase = cpu.start();
    let storedBefore = await stored();
    let started = performance.now();
    const batches = await closedLoop(8, SECONDS * 1000, sendBatch);
    const batchAccepted = batches.ok * BATCH_SIZE;
    const batchEndToEndS = await waitStored(storedBefore + batchAccepted, started);
    const batchCpu = cpuOfPhase();
    batchClient.close();

    // 2. Single OsmAnd reports.
    log(`phase 2: single OsmAnd reports for ${SECONDS} s`);
    cpuOfPhase = cpu.start();
    storedBefore = await stored();
    started = performance.now();
    const singles = await closedLoop(TRACKERS, SECONDS * 1000, sendSingle);
    const singlesEndToEndS = await waitStored(storedBefore + singles.ok, started);
    const singlesCpu = cpuOfPhase();
    deviceClient.close();

    // 3. Paced at 5,000 positions/s (50 batches of 100 a second): acceptance-to-visibility delay.
    log(`phase 3: 5,000 positions/s for ${SECONDS} s, measuring the delay to visibility`);
    cpuOfPhase = cpu.start();
    const pacedClient = new HttpClient(ingest.baseUrl, 32);
    const outstanding = new Map<number, { acceptedAt: number; vehicles: number[]; t: number[] }>();
    const delays: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling || outstanding.size) {
        const rows = await lastFixTimes(pool);
        const now = performance.now();
        const latest = new Map(rows.map((row) => [row.vehicle_id, Number(row.t)]));
        for (const [id, batch] of outstanding) {
          if (batch.vehicles.every((vehicle, i) => (latest.get(vehicle) ?? 0) >= batch.t[i])) {
            delays.push(now - batch.acceptedAt);
            outstanding.delete(id);
          }
        }
        await sleep(10);
      }
    })();
    const paced: Promise<void>[] = [];
    let pacedFailed = 0;
    const pacedStart = performance.now();
    for (let tick = 0; tick < SECONDS * 50; tick++) {
      const due = pacedStart + tick * 20;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const fixes = Array.from({ length: 100 }, nextFix);
      const body = JSON.stringify({
        positions: fixes.map((fix) => ({
          deviceId: imeiOf(fix.vehicle),
          timestamp: new Date(fix.t * 1000).toISOString(),
          lat: fix.lat,
          lon: fix.lon,
          speedKmh: 42,
        })),
      });
      paced.push(
        pacedClient
          .send('POST', '/ingest/v1/positions', body, { 'content-type': 'application/json', authorization })
          .then((response) => {
            if (response.status !== 200) pacedFailed++;
            else
              outstanding.set(tick, {
                acceptedAt: performance.now(),
                vehicles: fixes.map((f) => f.vehicle),
                t: fixes.map((f) => f.t),
              });
          }),
      );
    }
    await Promise.all(paced);
    const pacedSeconds = (performance.now() - pacedStart) / 1000;
    polling = false;
    await Promise.race([poller, sleep(60_000)]);
    const pacedCpu = cpuOfPhase();
    pacedClient.close();
    delays.sort((a, b) => a - b);

    const memory = Object.fromEntries(services.map((service) => [service.app, service.peakRssMb()]));
    // How many last-position updates were HOT (no new index entries; migrations/1764200000000-*).
    const updates = await lastPositionUpdates(pool);
    const result = {
      bench: 'ingest',
      machine: machineFacts(calibration),
      config: {
        kafkaClient: kafkaClientFlag(),
        vehicles: VEHICLES,
        batchSize: BATCH_SIZE,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        singleReportTrackers: TRACKERS,
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
      batch: {
        accepted: batchAccepted,
        acceptedPerSecond: Math.round(batchAccepted / batches.seconds),
        endToEndPerSecond: Math.round(batchAccepted / batchEndToEndS),
        requestLatencyMs: batches.latencyMs,
        failedRequests: batches.failed,
        cpuPercentOfOneCore: batchCpu,
      },
      singleOsmAnd: {
        accepted: singles.ok,
        requestsPerSecond: Math.round(singles.ok / singles.seconds),
        endToEndPerSecond: Math.round(singles.ok / singlesEndToEndS),
        requestLatencyMs: singles.latencyMs,
        failedRequests: singles.failed,
        cpuPercentOfOneCore: singlesCpu,
      },
      pacedVisibility: {
        offeredPerSecond: 5_000,
        achievedPerSecond: Math.round(((SECONDS * 50 - pacedFailed) * 100) / pacedSeconds),
        batchesMeasured: delays.length,
        failedBatches: pacedFailed,
        delayMs: {
          p50: round(percentile(delays, 50)),
          p99: round(percentile(delays, 99)),
          max: round(delays[delays.length - 1] ?? 0),
        },
        // Includes this bench polling last positions every 10 ms (its own PostgreSQL backend).
        cpuPercentOfOneCore: pacedCpu,
      },
      lastPositionUpdates: {
        updates: Number(updates.updates),
        hot: Number(updates.hot),
        tableMb: round(Number(updates.bytes) / 2 ** 20),
      },
      peakRssMb: memory,
      targets: TARGET,
      meetsTargets: {
        batch: Math.round(batchAccepted / batchEndToEndS) >= TARGET.batchPositionsPerSecond,
        singleOsmAnd: Math.round(singles.ok / singles.seconds) >= TARGET.singleRequestsPerSecond,
        p99Delay: percentile(delays, 99) <= TARGET.p99DelayMs,
        memory: Object.values(memory).every((mb) => mb <= TARGET.peakRssMb),
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await pool.end();
    await setup.stop();
    sink?.server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
