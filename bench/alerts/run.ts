/**
 * bench/alerts: the alert engine in the distributed mode (its own process, real Kafka, real
 * PostgreSQL) with 1,000 vehicles in 10 companies, 10,000 geofences (1,000 per company) and
 * configurations of every catalog type (bench/alerts/fleet-model.ts).
 *
 *   1. throughput: a backlog of `--positions` position events (default 300,000) published while
 *      alert-engine is stopped, then consumed by it: positions/s from its first commit to its last
 *      (its start-up excluded), with the records it wrote;
 *   2. latency: telemetry-ingest and query-api join it, and batches of 100 positions go to the batch
 *      endpoint at a steady `--rate` positions/s (default 2,000) for `--seconds` (default 30), after
 *      `--warmup` seconds (default 10) unmeasured; in each batch one vehicle goes above its maximum
 *      speed, and the delay from the batch's 200 until that overspeed record is visible in
 *      alert-engine's table is measured, p50/p99.
 *
 * The bench plays auth and the vehicle registry (snapshot topics) and the management routes
 * (geofences and configurations inserted with their rule version bump).
 *
 * `--kafka-client platformatic` runs the services on @platformatic/kafka (KAFKA_CLIENT; decision 0017).
 *
 * Usage: npm run bench:alerts [-- --positions 300000 --rate 2000 --seconds 30 --warmup 10]. Prints one
 * JSON document on stdout. KAFKA_BROKERS picks a running broker; otherwise scripts/kafka.sh starts one.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { alertsSchema, bumpRuleVersion } from '@fleet/alert-engine-service';
import { PositionReportedV1, Topics } from '@fleet/contracts';
import { dataSourceOptions, namespaced } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { Admin, CompressionTypes, Kafka, logLevel, Producer } from 'kafkajs';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { CpuMeter } from '../common/cpu-meter';
import { HttpClient } from '../common/http-load';
import {
  calibrate,
  createBenchDatabase,
  deleteNamespaceTopics,
  ensureKafka,
  kafkaClientFlag,
  log,
  machineFacts,
  numberFlag,
  percentile,
  round,
  ServiceProcess,
  sleep,
} from '../common/infra';
import { countRows } from '../common/tables.queries';
import { benchCompany, benchToken, benchVehicle, publishVehicles } from '../common/tenant';
import {
  insertConfigurations,
  insertGeofences,
  lastRecordId,
  overspeedRecordsAfter,
  recordsByType,
} from './alerts.queries';
import {
  companyOf,
  COMPANIES,
  configurationsOf,
  geofencesOf,
  HOLDING,
  imeiOf,
  positionOf,
  tagsOf,
  VEHICLES,
} from './fleet-model';

const BACKLOG = numberFlag('positions', 300_000);
const RATE = numberFlag('rate', 2_000);
const SECONDS = numberFlag('seconds', 30);
const WARMUP_SECONDS = numberFlag('warmup', 10);
const BATCH = 100;
const TARGET = { positionsPerSecond: 10_000, p99DelayMs: 500 };

/** Each vehicle's fixes one second apart, from six hours ago. */
const clock = new Array<number>(VEHICLES + 1).fill(Date.now() - 6 * 3_600_000);
const fixes = new Array<number>(VEHICLES + 1).fill(0);
function nextFix(vehicleId: number): PositionReportedV1 {
  clock[vehicleId] += 1_000;
  return positionOf(vehicleId, fixes[vehicleId]++, clock[vehicleId]);
}

/** Publishes position events as telemetry-ingest does (keyed by vehicle), in sends of 1,000. */
async function publishPositions(producer: Producer, topic: string, count: number): Promise<void> {
  let vehicle = 0;
  const sends: Promise<unknown>[] = [];
  for (let sent = 0; sent < count; sent += 1_000) {
    const messages = Array.from({ length: Math.min(1_000, count - sent) }, () => {
      vehicle = (vehicle % VEHICLES) + 1;
      return { key: String(vehicle), value: JSON.stringify(nextFix(vehicle)) };
    });
    sends.push(producer.send({ topic, messages, acks: -1, compression: CompressionTypes.None }));
    if (sends.length >= 8) await sends.shift();
  }
  await Promise.all(sends);
}

/** The sum of a group's committed offsets on a topic (what it has consumed). */
async function committed(admin: Admin, groupId: string, topic: string): Promise<number> {
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return offsets.partitions.reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
}

async function endOffsets(admin: Admin, topic: string): Promise<number> {
  return (await admin.fetchTopicOffsets(topic)).reduce((sum, partition) => sum + Number(partition.offset), 0);
}

/** Geofences, then configurations, of every company, each company's with its rule version bump. */
async function defineRules(databaseUrl: string): Promise<{ geofences: number; configurations: number }> {
  const dataSource = await new DataSource(
    dataSourceOptions(alertsSchema, { url: databaseUrl, migrateOnStart: false, poolSize: 2 }, 'bench'),
  ).initialize();
  let geofences = 0;
  let configurations = 0;
  try {
    for (const companyId of COMPANIES) {
      await dataSource.transaction(async (manager) => {
        const shapes = geofencesOf(companyId);
        const ids = await insertGeofences(manager, companyId, shapes);
        const defined = configurationsOf(companyId, ids);
        await insertConfigurations(manager, companyId, defined);
        await bumpRuleVersion(manager, companyId);
        geofences += ids.length;
        configurations += defined.length;
      });
    }
  } finally {
    await dataSource.destroy();
  }
  return { geofences, configurations };
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
    KAFKA_CLIENT: kafkaClientFlag(),
  };
  const client = new Kafka({
    clientId: 'bench',
    brokers: kafka.brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const producer = client.producer({ idempotent: true });
  const admin = client.admin();
  const pool = new Pool({ connectionString: database.url, max: 2 });
  const services: ServiceProcess[] = [];
  try {
    await Promise.all([producer.connect(), admin.connect()]);
    let engine = await ServiceProcess.start('alert-engine', env);
    services.push(engine);
    const positionsTopic = namespaced({ namespace }, Topics.positions.name);
    const engineGroup = namespaced({ namespace }, 'alert-engine');

    // The bench plays auth and the registry.
    const registry = new KafkaEventPublisher(producer, namespace);
    await registry.publish(
      Topics.companySnapshots,
      [HOLDING, ...COMPANIES].map((companyId) => ({
        key: String(companyId),
        payload: { ...benchCompany(companyId), parentId: companyId === HOLDING ? null : HOLDING },
      })),
    );
    await publishVehicles(
      registry,
      Array.from({ length: VEHICLES }, (_, index) =>
        benchVehicle(index + 1, imeiOf(index + 1), [companyOf(index + 1)], { tags: tagsOf(index + 1) }),
      ),
    );
    const rules = await defineRules(database.url);
    while ((await countRows(pool, 'alerts.vehicles')) < VEHICLES) await sleep(200);
    log(`${VEHICLES} vehicles, ${rules.geofences} geofences, ${rules.configurations} configurations`);

    // Warm-up: the engine's JIT and its rule sets, then it stops (committing) for the backlog.
    await publishPositions(producer, positionsTopic, 30_000);
    while ((await committed(admin, engineGroup, positionsTopic)) < (await endOffsets(admin, positionsTopic)))
      await sleep(200);
    await engine.stop();
    services.splice(services.indexOf(engine), 1);

    log(`phase 1: a backlog of ${BACKLOG} positions, then alert-engine consumes it`);
    await publishPositions(producer, positionsTopic, BACKLOG);
    const end = await endOffsets(admin, positionsTopic);
    const startOffset = await committed(admin, engineGroup, positionsTopic);
    const recordsBefore = await countRows(pool, 'alerts.records');
    engine = await ServiceProcess.start('alert-engine', env);
    const readyAt = performance.now();
    services.push(engine);
    const cpu = new CpuMeter({
      'alert-engine': { pids: () => [engine.pid] },
      kafka: { pids: kafka.pids },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    });
    // From its first commit: the rate of consumption, not of start-up.
    let first: { at: number; offset: number } | undefined;
    let cpuOfPhase = cpu.start();
    for (;;) {
      const offset = await committed(admin, engineGroup, positionsTopic);
      if (!first && offset > startOffset) {
        first = { at: performance.now(), offset };
        cpuOfPhase = cpu.start();
      }
      if (offset >= end) break;
      await sleep(100);
    }
    const doneAt = performance.now();
    const consumedSeconds = (doneAt - first!.at) / 1000;
    const throughputCpu = cpuOfPhase();
    const throughput = Math.round((end - first!.offset) / consumedSeconds);
    const recordsOfBacklog = (await countRows(pool, 'alerts.records')) - recordsBefore;
    log(`${throughput} positions/s, ${recordsOfBacklog} records`);

    log('phase 2: telemetry-ingest and query-api join; waiting for query-api to catch up');
    const ingest = await ServiceProcess.start('telemetry-ingest', env);
    services.push(ingest);
    const queryApi = await ServiceProcess.start('query-api', env);
    services.push(queryApi);
    const queryGroup = namespaced({ namespace }, 'query-api');
    while ((await committed(admin, queryGroup, positionsTopic)) < end) await sleep(500);
    while ((await countRows(pool, 'ingest.device_sessions')) < VEHICLES) await sleep(200);

    const http = new HttpClient(ingest.baseUrl, 32);
    const authorization = `Bearer ${benchToken(jwtSecret, HOLDING, ['positions:write'])}`;
    /** Batch `k`: 100 vehicles, one of them above every overspeed maximum (its next batch is not). */
    const batchOf = (k: number) => {
      const trigger = Math.floor(k / 10) % BATCH;
      const positions = Array.from({ length: BATCH }, (_, slot) => {
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
      return positions;
    };
    const send = (positions: ReturnType<typeof batchOf>) =>
      http.send('POST', '/ingest/v1/positions', JSON.stringify({ positions: positions.map((p) => p.body) }), {
        'content-type': 'application/json',
        authorization,
      });
    for (
      const deadline = performance.now() + 60_000;
      (await send(batchOf(0))).status !== 200;
      await sleep(200)
    ) {
      if (performance.now() > deadline)
        throw new Error('the batch endpoint refused the bench token for 60 s');
    }

    const paced = async (seconds: number, firstBatch: number, measure: boolean) => {
      const outstanding = new Map<string, number>();
      /** Records seen before their batch's answer reached the bench (its event loop was busy): delay 0. */
      const seenEarly = new Set<string>();
      const delays: number[] = [];
      let lastId = await lastRecordId(pool);
      let sending = true;
      let stoppedAt = 0;
      const poller = (async () => {
        while (sending || outstanding.size) {
          const rows = await overspeedRecordsAfter(pool, lastId);
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
      let failed = 0;
      const failures: Record<number, string> = {};
      const batchesPerSecond = RATE / BATCH;
      const requests: Promise<void>[] = [];
      const started = performance.now();
      for (let tick = 0; tick < seconds * batchesPerSecond; tick++) {
        const wait = started + (tick * 1000) / batchesPerSecond - performance.now();
        if (wait > 0) await sleep(wait);
        const positions = batchOf(firstBatch + tick);
        requests.push(
          send(positions).then((response) => {
            if (response.status !== 200) {
              failures[response.status] = response.body.slice(0, 300);
              return void failed++;
            }
            const trigger = positions.find((p) => p.trigger)!;
            const key = `${trigger.vehicleId}@${trigger.fixTime}`;
            if (!measure) return;
            if (seenEarly.delete(key)) delays.push(0);
            else outstanding.set(key, performance.now());
          }),
        );
      }
      await Promise.all(requests);
      const sentSeconds = (performance.now() - started) / 1000;
      sending = false;
      stoppedAt = performance.now();
      await poller;
      delays.sort((a, b) => a - b);
      return {
        delays,
        failed,
        failures,
        missing: outstanding.size,
        missingExamples: [...outstanding.keys()].slice(0, 5),
        sentSeconds,
        batches: seconds * batchesPerSecond,
      };
    };
    log(`warm-up: ${RATE} positions/s for ${WARMUP_SECONDS} s, not measured`);
    await paced(WARMUP_SECONDS, 1, false);
    log(`phase 2: ${RATE} positions/s for ${SECONDS} s, measuring acceptance to record`);
    const latencyCpuMeter = new CpuMeter({
      'alert-engine': { pids: () => [engine.pid] },
      'telemetry-ingest': { pids: () => [ingest.pid] },
      'query-api': { pids: () => [queryApi.pid] },
      kafka: { pids: kafka.pids },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    }).start();
    const latency = await paced(SECONDS, 1 + WARMUP_SECONDS * (RATE / BATCH), true);
    const latencyCpu = latencyCpuMeter();
    http.close();

    const records = await recordsByType(pool);
    const result = {
      bench: 'alerts',
      machine: machineFacts(calibration),
      config: {
        kafkaClient: kafkaClientFlag(),
        vehicles: VEHICLES,
        companies: COMPANIES.length,
        geofences: rules.geofences,
        configurations: rules.configurations,
        backlogPositions: BACKLOG,
        pacedRate: RATE,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        transport: 'kafka',
      },
      throughput: {
        positions: end - first!.offset,
        positionsPerSecond: throughput,
        // Including the time from ready to the first commit (joining the group, the first fetch, the
        // rule sets' first load): a lower bound.
        fromReadyPositionsPerSecond: Math.round((end - startOffset) / ((doneAt - readyAt) / 1000)),
        records: recordsOfBacklog,
        cpuPercentOfOneCore: throughputCpu,
      },
      latency: {
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
        cpuPercentOfOneCore: latencyCpu,
      },
      recordsByType: Object.fromEntries(records.map((row) => [row.type, Number(row.n)])),
      peakRssMb: Object.fromEntries(services.map((service) => [service.app, service.peakRssMb()])),
      targets: TARGET,
      meetsTargets: {
        throughput: throughput >= TARGET.positionsPerSecond,
        p99Delay: latency.missing === 0 && percentile(latency.delays, 99) <= TARGET.p99DelayMs,
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await pool.end();
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await Promise.all(services.map((service) => service.stop()));
    await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
