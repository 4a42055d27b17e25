/**
 * bench/query: the two hottest read routes of query-api in the distributed mode (its own process,
 * real Kafka for the company projection, real PostgreSQL, Redis-backed rate limits raised for the
 * run so that the limiter runs but never refuses), each beside a bare node:http + pg server that runs
 * the same SQL, in the same run:
 *   - last position of a company with 1,000 vehicles, page size 50;
 *   - nearest 10 vehicles of a company with 100,000 vehicles, from random points.
 *
 * Each scenario first runs `--warmup` seconds (default 10) unmeasured: both servers' JIT compilers
 * start cold, and a 2 s warm-up left query-api spending ~10% of its CPU compiling while measured.
 * Then the service and its bare server are measured in turns (`--rounds` slices of each, default 4),
 * so that the machine's changes of speed, up to 2x over a day here, fall on both sides alike.
 *
 * Usage: npm run bench:query [-- --seconds 10 --concurrency 16 --warmup 10 --rounds 4]. Prints one
 * JSON document on stdout.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Topics } from '@fleet/contracts';
import { serviceNodeOptions } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import {
  closedLoop,
  HttpClient,
  LoadRecorder,
  LoadResult,
  RawAnswer,
  RawHttpClient,
} from '../common/http-load';
import {
  createBenchDatabase,
  deleteNamespaceTopics,
  ensureKafka,
  freePort,
  log,
  repoRoot,
  round,
  ServiceProcess,
  sleep,
  numberFlag,
  calibrate,
  machineFacts,
} from '../common/infra';
import { CpuMeter } from '../common/cpu-meter';
import { benchCompany, benchToken } from '../common/tenant';

const SECONDS = numberFlag('seconds', 10);
const CONCURRENCY = numberFlag('concurrency', 16);
const WARMUP_SECONDS = numberFlag('warmup', 10);
/** Each side's measured seconds are split into this many slices, the two sides taking turns. */
const ROUNDS = numberFlag('rounds', 4);
/** Processes per side (query-api replicas, bare servers), requests spread round robin. */
const REPLICAS = numberFlag('replicas', 1);
const TARGET = { throughputRatio: 0.6, p99Ms: 50 };
/** How long each server may take to answer its first request (projection caught up, listening). */
const READY_TIMEOUT_MS = 60_000;
const SMALL_FLEET = { companyId: 1, vehicles: 1_000 };
const LARGE_FLEET = { companyId: 2, vehicles: 100_000 };

/** Vehicles with ids from `first`, mapped to `companyId`, each with a last position somewhere in Europe. */
async function seedFleet(pool: Pool, companyId: number, first: number, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO query.vehicles (id, name, imei, vin)
       SELECT g, 'Vehicle ' || g, '35' || lpad(g::text, 13, '0'), NULL FROM generate_series($1::int, $2::int) g`,
    [first, first + count - 1],
  );
  await pool.query(
    // `reported`: every seeded vehicle gets a last position below, as the projection would mark it.
    `INSERT INTO query.vehicle_companies (vehicle_id, company_id, reported)
       SELECT g, $3, true FROM generate_series($1::int, $2::int) g`,
    [first, first + count - 1, companyId],
  );
  await pool.query(
    `INSERT INTO query.last_positions
       (vehicle_id, fix_time, event_id, received_at, last_seen_at, lat, lng, speed_kmh, course, ignition, readings, motion,
        anchor_lat, anchor_lng)
     SELECT *, lat, lng FROM (
       SELECT g, now() - interval '1 minute', gen_random_uuid(), now(), now(),
              36 + random() * 20 AS lat, -8 + random() * 36 AS lng, random() * 90, (random() * 359)::int, random() < 0.5,
              '{"satellites": 9, "odometerM": 123456}'::jsonb, '{}'::jsonb
         FROM generate_series($1::int, $2::int) g) seeded`,
    [first, first + count - 1],
  );
}

/** Spreads requests over several servers' clients, one after the other. */
class RoundRobin {
  private next = 0;

  constructor(private readonly clients: RawHttpClient[]) {}

  get(path: string, headers?: Record<string, string>): Promise<RawAnswer> {
    const client = this.clients[this.next];
    this.next = (this.next + 1) % this.clients.length;
    return client.get(path, headers);
  }

  close(): void {
    for (const client of this.clients) client.close();
  }
}

async function main(): Promise<void> {
  const calibration = calibrate();
  const kafka = ensureKafka();
  const database = await createBenchDatabase();
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const secret = randomUUID() + randomUUID();
  const env = {
    DATABASE_URL: database.url,
    KAFKA_BROKERS: kafka.brokers,
    KAFKA_NAMESPACE: namespace,
    AUTH_JWT_SECRET: secret,
    RATE_LIMIT_STORE: 'redis',
    RATE_LIMIT_DEFAULT: 'second=1000000',
    RATE_LIMIT_KEY_PREFIX: `${namespace}:rl:`,
    GEOCODER_PROVIDER: 'offline',
  };
  const pool = new Pool({ connectionString: database.url, max: 2 });
  const producer = new Kafka({
    clientId: 'bench',
    brokers: kafka.brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).producer({
    idempotent: true,
  });
  const queryApis: ServiceProcess[] = [];
  const bares: ReturnType<typeof spawn>[] = [];
  try {
    for (let i = 0; i < REPLICAS; i++) queryApis.push(await ServiceProcess.start('query-api', env));
    await producer.connect();
    await new KafkaEventPublisher(producer, namespace).publish(
      Topics.companySnapshots,
      [benchCompany(SMALL_FLEET.companyId), benchCompany(LARGE_FLEET.companyId)].map((payload) => ({
        key: String(payload.companyId),
        payload,
      })),
    );
    log('seeding 101,000 vehicles with last positions');
    await seedFleet(pool, SMALL_FLEET.companyId, 1, SMALL_FLEET.vehicles);
    await seedFleet(pool, LARGE_FLEET.companyId, 10_001, LARGE_FLEET.vehicles);
    await pool.query('ANALYZE query.vehicles; ANALYZE query.last_positions');
    // Mappings are written rarely (a new mapping, a first report), so autovacuum keeps their visibility
    // map set in production; here it is done at once. The company pages are index-only scans of them.
    await pool.query('VACUUM ANALYZE query.vehicle_companies');

    const barePorts: number[] = [];
    for (let i = 0; i < REPLICAS; i++) barePorts.push(await freePort());
    for (const barePort of barePorts) {
      bares.push(
        spawn(
          process.execPath,
          [
            // The services' node options; bare-server.ts sets their V8 flags too.
            ...serviceNodeOptions.split(' '),
            '-r',
            'ts-node/register',
            '-r',
            join(repoRoot, 'scripts/runtime-aliases.cjs'),
            join(__dirname, 'bare-server.ts'),
          ],
          {
            cwd: repoRoot,
            env: {
              ...process.env,
              TS_NODE_TRANSPILE_ONLY: '1',
              DATABASE_URL: database.url,
              PORT: String(barePort),
            },
            stdio: ['ignore', 'ignore', 'inherit'],
          },
        ),
      );
    }
    const token = benchToken(secret, SMALL_FLEET.companyId);
    const largeToken = benchToken(secret, LARGE_FLEET.companyId);
    const serviceUrls = queryApis.map((api) => api.baseUrl);
    const bareUrls = barePorts.map((port) => `http://127.0.0.1:${port}`);
    // Every process answers before measuring (the company projection has arrived, the bare server listens).
    for (const url of [...serviceUrls, ...bareUrls]) {
      const probe = new HttpClient(url, 1);
      const path = bareUrls.includes(url)
        ? '/last-position'
        : `/v2/api/companies/${LARGE_FLEET.companyId}/vehicles/nearest?num=1`;
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (let status = 0; status !== 200;) {
        if (Date.now() > deadline) {
          throw new Error(`${url}${path} gave no 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${status})`);
        }
        status = (
          await probe
            .send('GET', path, undefined, { authorization: `Bearer ${largeToken}` })
            .catch(() => ({ status: 0 }))
        ).status;
        if (status !== 200) await sleep(250);
      }
      probe.close();
    }

    const randomPoint = () =>
      `lat=${round(36 + Math.random() * 20, 4)}&lng=${round(-8 + Math.random() * 36, 4)}`;
    const lastPositionPage = () => 1 + Math.floor(Math.random() * 20);
    // Closed loops through hand-parsed keep-alive clients (bench/common/http-load), the same for both
    // servers: node:http's client spent more of the shared cores on the service's larger bodies.
    const serviceLoad = new RoundRobin(serviceUrls.map((url) => new RawHttpClient(url)));
    const bareLoad = new RoundRobin(bareUrls.map((url) => new RawHttpClient(url)));
    // The size of each scenario's last response body: the service's records are fuller than the bare rows.
    const responseBytes: Record<string, number> = {};
    const sized = async (name: string, answer: Promise<RawAnswer>) => {
      const { status, bodyBytes } = await answer;
      responseBytes[name] = bodyBytes;
      return status;
    };
    const scenarios: Record<string, { run: () => Promise<number> }> = {
      lastPosition: {
        run: () =>
          sized(
            'lastPosition',
            serviceLoad.get(
              `/v2/api/companies/1/vehicles/last-position?page=${lastPositionPage()}&pageSize=50`,
              {
                authorization: `Bearer ${token}`,
              },
            ),
          ),
      },
      lastPositionBare: {
        run: () =>
          sized(
            'lastPositionBare',
            bareLoad.get(`/last-position?company=1&page=${lastPositionPage()}&pageSize=50`),
          ),
      },
      nearest: {
        run: () =>
          sized(
            'nearest',
            serviceLoad.get(`/v2/api/companies/2/vehicles/nearest?${randomPoint()}&num=10&pageSize=10`, {
              authorization: `Bearer ${largeToken}`,
            }),
          ),
      },
      nearestBare: {
        run: () =>
          sized('nearestBare', bareLoad.get(`/nearest?company=2&${randomPoint()}&num=10&pageSize=10`)),
      },
    };
    const cpu = new CpuMeter({
      'query-api': { pids: () => queryApis.map((api) => api.pid) },
      bare: { pids: () => bares.flatMap((bare) => (bare.pid ? [bare.pid] : [])) },
      postgres: { command: 'postgres' },
      redis: { command: 'redis-server' },
      kafka: { pids: kafka.pids },
      bench: { pids: () => [process.pid] },
    });
    const results: Record<string, LoadResult> = {};
    const cpuOf: Record<string, Record<string, number>> = {};
    for (const route of ['lastPosition', 'nearest']) {
      const pair = [route, `${route}Bare`];
      for (const name of pair) {
        log(`${name}: ${WARMUP_SECONDS} s of warm-up at concurrency ${CONCURRENCY}`);
        await closedLoop(CONCURRENCY, WARMUP_SECONDS * 1000, scenarios[name].run);
      }
      // The two sides take turns in short slices, each first in every other round, so that a change
      // in the machine's speed during the run (docs/performance.md) falls on both alike.
      log(`${route}: ${SECONDS} s a side at concurrency ${CONCURRENCY}, in ${ROUNDS} alternating rounds`);
      const recorders = new Map(pair.map((name) => [name, new LoadRecorder()]));
      const cpuSeconds = new Map(pair.map((name) => [name, {} as Record<string, number>]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of round % 2 === 0 ? pair : [...pair].reverse()) {
          const started = performance.now();
          const cpuOfSlice = cpu.start();
          await recorders.get(name)!.run(CONCURRENCY, (SECONDS * 1000) / ROUNDS, scenarios[name].run);
          const seconds = (performance.now() - started) / 1000;
          const sum = cpuSeconds.get(name)!;
          for (const [group, percent] of Object.entries(cpuOfSlice())) {
            sum[group] = (sum[group] ?? 0) + percent * seconds;
          }
        }
      }
      for (const name of pair) {
        results[name] = recorders.get(name)!.result();
        cpuOf[name] = Object.fromEntries(
          Object.entries(cpuSeconds.get(name)!).map(([group, weighted]) => [
            group,
            Math.round(weighted / results[name].seconds),
          ]),
        );
      }
    }
    serviceLoad.close();
    bareLoad.close();

    const compare = (name: string) => {
      const measured = results[name];
      const baseline = results[`${name}Bare`];
      const ratio = round(measured.perSecond / baseline.perSecond, 2);
      return {
        service: {
          perSecond: measured.perSecond,
          latencyMs: measured.latencyMs,
          failed: measured.failed,
          statuses: measured.statuses,
          responseBytes: responseBytes[name],
          cpuPercentOfOneCore: cpuOf[name],
        },
        bare: {
          perSecond: baseline.perSecond,
          latencyMs: baseline.latencyMs,
          failed: baseline.failed,
          responseBytes: responseBytes[`${name}Bare`],
          cpuPercentOfOneCore: cpuOf[`${name}Bare`],
        },
        throughputRatio: ratio,
        meetsTargets:
          ratio >= TARGET.throughputRatio && measured.latencyMs.p99 <= TARGET.p99Ms && measured.failed === 0,
      };
    };
    const result = {
      bench: 'query',
      machine: machineFacts(calibration),
      config: {
        seconds: SECONDS,
        concurrency: CONCURRENCY,
        warmupSeconds: WARMUP_SECONDS,
        alternatingRounds: ROUNDS,
        processesPerSide: REPLICAS,
        rateLimit: env.RATE_LIMIT_DEFAULT,
        rateLimitStore: 'redis',
        lastPosition: `company of ${SMALL_FLEET.vehicles} vehicles, random page of 50`,
        nearest: `company of ${LARGE_FLEET.vehicles} vehicles, num=10, random point`,
      },
      lastPosition: compare('lastPosition'),
      nearest: compare('nearest'),
      peakRssMb: { 'query-api': Math.max(...queryApis.map((api) => api.peakRssMb())) },
      targets: TARGET,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const bare of bares) bare.kill('SIGTERM');
    await producer.disconnect().catch(() => undefined);
    await pool.end();
    for (const api of queryApis) await api.stop();
    await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
