/**
 * bench/query: the hottest read routes of query-api in the distributed mode (its own process, real
 * Kafka for the company projection and the positions, real PostgreSQL, Redis-backed rate limits raised
 * for the run so that the limiter runs but never refuses), each beside a bare node:http + pg server
 * that runs the same SQL, in the same run. Scenarios (`--scenarios`, a comma-separated list, all by default):
 *   - `last-position`: last positions of a company with 1,000 vehicles, page size 50;
 *   - `nearest`: nearest 10 vehicles of a company with 100,000 vehicles, from random points;
 *   - `safety-score` (issue 20): the safety score of a random vehicle of that company of 1,000, whose
 *     month of insight rows is written in SQL (bench/query/insight-fleet.ts), over a week window
 *     (`intervalType=4`) or a one-month instant range, half each;
 *   - `battery-health` (issue 20): a random page of 50 of that company's battery health, from the
 *     same month of rows;
 *   - `safety-score-year` (issue 20): one vehicle with a year of history, `--year-positions` reports
 *     (default 500,000) published on the positions topic and projected by query-api itself
 *     (bench/query/year-seeding.ts); then its safety score over the whole year and over random
 *     months (`intervalType=1`), latency at `--year-concurrency` (default 1: one user waiting).
 *     `--year-neighbours 64` lays its activity rows out in the heap as in a fleet of 65 vehicles.
 *
 * Each route first runs `--warmup` seconds (default 10) unmeasured: both servers' JIT compilers
 * start cold, and a 2 s warm-up left query-api spending ~10% of its CPU compiling while measured.
 * Then the service and its bare server are measured in turns (`--rounds` slices of each, default 4),
 * so that the machine's changes of speed, up to 2x over a day here, fall on both sides alike.
 *
 * Usage: npm run bench:query [-- --seconds 10 --concurrency 16 --warmup 10 --rounds 4
 * --scenarios last-position,nearest,safety-score,battery-health,safety-score-year --year-positions 500000
 * --year-concurrency 1 --year-neighbours 0 --keep-database]. Prints one JSON document on stdout.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Topics } from '@fleet/contracts';
import { serviceNodeOptions } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import {
  HttpClient,
  LoadRecorder,
  LoadResult,
  RawAnswer,
  RawHttpClient,
  closedLoop,
} from '../common/http-load';
import {
  calibrate,
  createBenchDatabase,
  deleteNamespaceTopics,
  ensureKafka,
  freePort,
  log,
  machineFacts,
  numberFlag,
  percentile,
  repoRoot,
  round,
  ServiceProcess,
  setFlag,
  sleep,
} from '../common/infra';
import { CpuMeter } from '../common/cpu-meter';
import { benchCompany, benchToken } from '../common/tenant';
import { seedInsights } from './insight-fleet.queries';
import { seedYearVehicle, YearVehicle } from './year-seeding';

const SECONDS = numberFlag('seconds', 10);
const CONCURRENCY = numberFlag('concurrency', 16);
const WARMUP_SECONDS = numberFlag('warmup', 10);
/** Each side's measured seconds are split into this many slices, the two sides taking turns. */
const ROUNDS = numberFlag('rounds', 4);
/** Processes per side (query-api replicas, bare servers), requests spread round robin. */
const REPLICAS = numberFlag('replicas', 1);
const SCENARIO_NAMES = ['last-position', 'nearest', 'safety-score', 'battery-health', 'safety-score-year'];
const SCENARIOS = setFlag('scenarios', SCENARIO_NAMES);
const YEAR_POSITIONS = numberFlag('year-positions', 500_000);
/** Requests in flight on the year vehicle: 1 measures what one user waits. */
const YEAR_CONCURRENCY = numberFlag('year-concurrency', 1);
/**
 * Other vehicles whose activity rows are interleaved with the year vehicle's in the heap, as a fleet's
 * would be (year-seeding.ts); 0 leaves the rows where the projection wrote them, contiguous.
 */
const YEAR_NEIGHBOURS = numberFlag('year-neighbours', 0);
/** Leaves the run's database in place (its URL on stderr), to EXPLAIN what was measured. */
const KEEP_DATABASE = process.argv.includes('--keep-database');
const TARGET = {
  /** The original query routes (issue 4). */
  throughputRatio: 0.6,
  p99Ms: 50,
  /** The insight routes (issue 20): the same ratio to the bare server. */
  insightThroughputRatio: 0.6,
  /** The safety score of a vehicle with a year of history, over the whole year. */
  yearP99Ms: 200,
};
/** How long each server may take to answer its first request (projection caught up, listening). */
const READY_TIMEOUT_MS = 60_000;
const SMALL_FLEET = { companyId: 1, vehicles: 1_000 };
const LARGE_FLEET = { companyId: 2, vehicles: 100_000 };
/** The year vehicle has a company of its own, so that it changes no page of the others. */
const YEAR_FLEET = { companyId: 3, vehicleId: 900_001 };
/** Days of insight rows of each vehicle of the small fleet. */
const INSIGHT_DAYS = 30;
const DAY_MS = 86_400_000;

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

/** One side of a measured route: a request, sent to the service or to its bare server. */
interface Scenario {
  run: () => Promise<number>;
}

/** p50/p95/p99 of one scenario's own latency samples (LoadResult has no p95). */
function latencyOf(samples: number[]): {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
} {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(percentile(sorted, p), 1);
  return {
    requests: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: round(sorted[sorted.length - 1] ?? 0, 1),
  };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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
  const has = (scenario: string) => SCENARIOS.has(scenario);
  try {
    for (const scenario of SCENARIOS) {
      if (!SCENARIO_NAMES.includes(scenario)) throw new Error(`unknown scenario ${scenario}`);
    }
    for (let i = 0; i < REPLICAS; i++) queryApis.push(await ServiceProcess.start('query-api', env));
    await producer.connect();
    const publisher = new KafkaEventPublisher(producer, namespace);
    await publisher.publish(
      Topics.companySnapshots,
      [SMALL_FLEET, LARGE_FLEET, YEAR_FLEET]
        .map(({ companyId }) => benchCompany(companyId))
        .map((payload) => ({
          key: String(payload.companyId),
          payload,
        })),
    );
    const seedingSeconds: Record<string, number> = {};
    const timed = async (name: string, work: () => Promise<void>) => {
      const started = performance.now();
      await work();
      seedingSeconds[name] = round((performance.now() - started) / 1000, 1);
    };
    const insights = has('safety-score') || has('battery-health');
    if (has('last-position') || insights) {
      log(`seeding ${SMALL_FLEET.vehicles} vehicles with last positions`);
      await timed('smallFleet', () => seedFleet(pool, SMALL_FLEET.companyId, 1, SMALL_FLEET.vehicles));
    }
    if (has('nearest')) {
      log(`seeding ${LARGE_FLEET.vehicles} vehicles with last positions`);
      await timed('largeFleet', () => seedFleet(pool, LARGE_FLEET.companyId, 10_001, LARGE_FLEET.vehicles));
    }
    if (insights) {
      log(`seeding ${INSIGHT_DAYS} days of insight rows for each of ${SMALL_FLEET.vehicles} vehicles`);
      await timed('insightRows', () => seedInsights(pool, 1, SMALL_FLEET.vehicles, INSIGHT_DAYS));
    }
    await pool.query('ANALYZE query.vehicles; ANALYZE query.last_positions');
    // Mappings are written rarely (a new mapping, a first report), so autovacuum keeps their visibility
    // map set in production; here it is done at once. The company pages are index-only scans of them.
    await pool.query('VACUUM ANALYZE query.vehicle_companies');
    // So do the insight tables, which only grow at their end.
    await pool.query('VACUUM ANALYZE query.vehicle_activity, query.driving_events, query.trips');
    let year: YearVehicle | undefined;
    if (has('safety-score-year')) {
      year = await seedYearVehicle(pool, publisher, {
        ...YEAR_FLEET,
        positions: YEAR_POSITIONS,
        neighbours: YEAR_NEIGHBOURS,
      });
    }

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
    const tokens = {
      small: benchToken(secret, SMALL_FLEET.companyId),
      large: benchToken(secret, LARGE_FLEET.companyId),
      year: benchToken(secret, YEAR_FLEET.companyId),
    };
    const serviceUrls = queryApis.map((api) => api.baseUrl);
    const bareUrls = barePorts.map((port) => `http://127.0.0.1:${port}`);
    // Every process answers before measuring: the company projection has arrived (the service knows
    // the company of every token) and the bare server listens.
    const ready = async (url: string, path: string, token?: string) => {
      const probe = new HttpClient(url, 1);
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (let status = 0; status !== 200;) {
        if (Date.now() > deadline) {
          throw new Error(`${url}${path} gave no 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${status})`);
        }
        status = (
          await probe
            .send('GET', path, undefined, token ? { authorization: `Bearer ${token}` } : {})
            .catch(() => ({ status: 0 }))
        ).status;
        if (status !== 200) await sleep(250);
      }
      probe.close();
    };
    for (const url of serviceUrls) {
      for (const [companyId, token] of [
        [SMALL_FLEET.companyId, tokens.small],
        [LARGE_FLEET.companyId, tokens.large],
        [YEAR_FLEET.companyId, tokens.year],
      ] as const) {
        await ready(url, `/v2/api/companies/${companyId}/vehicles/last-position?pageSize=1`, token);
      }
    }
    for (const url of bareUrls) await ready(url, '/last-position?company=1&pageSize=1');

    const randomPoint = () =>
      `lat=${round(36 + Math.random() * 20, 4)}&lng=${round(-8 + Math.random() * 36, 4)}`;
    const lastPositionPage = () => 1 + Math.floor(Math.random() * 20);
    /**
     * A safety-score window of the fleet: half a week ending on a random day of the month of rows
     * (`intervalType=4`, a local date as `finish`), half a 30-day instant range starting 25–35 days ago.
     */
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const fleetWindow = () =>
      Math.random() < 0.5
        ? `intervalType=4&finish=${isoDay(today - Math.floor(Math.random() * INSIGHT_DAYS) * DAY_MS)}`
        : (() => {
            const start = Date.now() - (25 + Math.random() * 10) * DAY_MS;
            return `intervalType=1&start=${new Date(start).toISOString()}&finish=${new Date(start + 30 * DAY_MS).toISOString()}`;
          })();
    const fleetVehicle = () => 1 + Math.floor(Math.random() * SMALL_FLEET.vehicles);
    // The year vehicle: the whole year up to now, or a calendar month from a random day of its history.
    const yearWindow = () =>
      `intervalType=1&start=${new Date(Date.now() - 365 * DAY_MS).toISOString()}&finish=${new Date().toISOString()}`;
    const monthWindow = () => {
      const from = year!.firstFixMs + Math.random() * (year!.lastFixMs - year!.firstFixMs - 31 * DAY_MS);
      const start = new Date(from);
      const finish = new Date(start);
      finish.setUTCMonth(finish.getUTCMonth() + 1);
      return `intervalType=1&start=${start.toISOString()}&finish=${finish.toISOString()}`;
    };

    // Closed loops through hand-parsed keep-alive clients (bench/common/http-load), the same for both
    // servers: node:http's client spent more of the shared cores on the service's larger bodies.
    const serviceLoad = new RoundRobin(serviceUrls.map((url) => new RawHttpClient(url)));
    const bareLoad = new RoundRobin(bareUrls.map((url) => new RawHttpClient(url)));
    // The size of each scenario's last response body: the service's records are fuller than the bare rows.
    const responseBytes: Record<string, number> = {};
    /** Latency samples of the year scenarios while measured, for their p95. */
    const samples: Record<string, number[]> = {};
    let sampling = false;
    const sized = async (name: string, answer: () => Promise<RawAnswer>) => {
      const sent = performance.now();
      const { status, bodyBytes } = await answer();
      if (sampling) (samples[name] ??= []).push(performance.now() - sent);
      responseBytes[name] = bodyBytes;
      return status;
    };
    const service = (name: string, path: () => string, token: string): Scenario => ({
      run: () => sized(name, () => serviceLoad.get(path(), { authorization: `Bearer ${token}` })),
    });
    const bare = (name: string, path: () => string): Scenario => ({
      run: () => sized(name, () => bareLoad.get(path())),
    });
    const scenarios: Record<string, Scenario> = {
      lastPosition: service(
        'lastPosition',
        () => `/v2/api/companies/1/vehicles/last-position?page=${lastPositionPage()}&pageSize=50`,
        tokens.small,
      ),
      lastPositionBare: bare(
        'lastPositionBare',
        () => `/last-position?company=1&page=${lastPositionPage()}&pageSize=50`,
      ),
      nearest: service(
        'nearest',
        () => `/v2/api/companies/2/vehicles/nearest?${randomPoint()}&num=10&pageSize=10`,
        tokens.large,
      ),
      nearestBare: bare('nearestBare', () => `/nearest?company=2&${randomPoint()}&num=10&pageSize=10`),
      safetyScore: service(
        'safetyScore',
        () => `/v2/api/safety-score/${fleetVehicle()}?${fleetWindow()}`,
        tokens.small,
      ),
      safetyScoreBare: bare(
        'safetyScoreBare',
        () => `/safety-score?company=${SMALL_FLEET.companyId}&vehicle=${fleetVehicle()}&${fleetWindow()}`,
      ),
      batteryHealth: service(
        'batteryHealth',
        () => `/v2/api/battery-health?pageNumber=${lastPositionPage()}&pageSize=50`,
        tokens.small,
      ),
      batteryHealthBare: bare(
        'batteryHealthBare',
        () => `/battery-health?company=${SMALL_FLEET.companyId}&page=${lastPositionPage()}&pageSize=50`,
      ),
      safetyScoreYear: service(
        'safetyScoreYear',
        () => `/v2/api/safety-score/${YEAR_FLEET.vehicleId}?${yearWindow()}`,
        tokens.year,
      ),
      safetyScoreYearBare: bare(
        'safetyScoreYearBare',
        () => `/safety-score?company=${YEAR_FLEET.companyId}&vehicle=${YEAR_FLEET.vehicleId}&${yearWindow()}`,
      ),
      safetyScoreMonth: service(
        'safetyScoreMonth',
        () => `/v2/api/safety-score/${YEAR_FLEET.vehicleId}?${monthWindow()}`,
        tokens.year,
      ),
      safetyScoreMonthBare: bare(
        'safetyScoreMonthBare',
        () =>
          `/safety-score?company=${YEAR_FLEET.companyId}&vehicle=${YEAR_FLEET.vehicleId}&${monthWindow()}`,
      ),
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
    /**
     * Warms up each of `names` unmeasured, then measures them in `ROUNDS` alternating slices of
     * `SECONDS / ROUNDS` each (the order reversed every other round), at `concurrency`.
     */
    const measure = async (names: string[], concurrency: number) => {
      for (const name of names) {
        log(`${name}: ${WARMUP_SECONDS} s of warm-up at concurrency ${concurrency}`);
        await closedLoop(concurrency, WARMUP_SECONDS * 1000, scenarios[name].run);
      }
      // The sides take turns in short slices, each first in every other round, so that a change in
      // the machine's speed during the run (docs/performance.md) falls on all alike.
      log(
        `${names.join(', ')}: ${SECONDS} s each at concurrency ${concurrency}, in ${ROUNDS} alternating rounds`,
      );
      const recorders = new Map(names.map((name) => [name, new LoadRecorder()]));
      const cpuSeconds = new Map(names.map((name) => [name, {} as Record<string, number>]));
      sampling = true;
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of round % 2 === 0 ? names : [...names].reverse()) {
          const started = performance.now();
          const cpuOfSlice = cpu.start();
          await recorders.get(name)!.run(concurrency, (SECONDS * 1000) / ROUNDS, scenarios[name].run);
          const seconds = (performance.now() - started) / 1000;
          const sum = cpuSeconds.get(name)!;
          for (const [group, percent] of Object.entries(cpuOfSlice())) {
            sum[group] = (sum[group] ?? 0) + percent * seconds;
          }
        }
      }
      sampling = false;
      for (const name of names) {
        results[name] = recorders.get(name)!.result();
        cpuOf[name] = Object.fromEntries(
          Object.entries(cpuSeconds.get(name)!).map(([group, weighted]) => [
            group,
            Math.round(weighted / results[name].seconds),
          ]),
        );
      }
    };
    const pairs: [string, string][] = [
      ['last-position', 'lastPosition'],
      ['nearest', 'nearest'],
      ['safety-score', 'safetyScore'],
      ['battery-health', 'batteryHealth'],
    ];
    for (const [scenario, route] of pairs) {
      if (has(scenario)) await measure([route, `${route}Bare`], CONCURRENCY);
    }
    if (year) {
      await measure(
        ['safetyScoreYear', 'safetyScoreYearBare', 'safetyScoreMonth', 'safetyScoreMonthBare'],
        YEAR_CONCURRENCY,
      );
    }
    serviceLoad.close();
    bareLoad.close();

    const compare = (name: string, ratioTarget: number, p99Ms?: number) => {
      const measured = results[name];
      const baseline = results[`${name}Bare`];
      // From the counts: perSecond is rounded to whole requests, too coarse for a slow route's few a second.
      const ratio = round(measured.requests / measured.seconds / (baseline.requests / baseline.seconds), 2);
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
          statuses: baseline.statuses,
          responseBytes: responseBytes[`${name}Bare`],
          cpuPercentOfOneCore: cpuOf[`${name}Bare`],
        },
        throughputRatio: ratio,
        meetsTargets:
          ratio >= ratioTarget &&
          (p99Ms === undefined || measured.latencyMs.p99 <= p99Ms) &&
          measured.failed === 0,
      };
    };
    const yearSide = (name: string) => ({
      latencyMs: latencyOf(samples[name] ?? []),
      perSecond: results[name].perSecond,
      failed: results[name].failed,
      statuses: results[name].statuses,
      responseBytes: responseBytes[name],
      cpuPercentOfOneCore: cpuOf[name],
    });
    const result = {
      bench: 'query',
      machine: machineFacts(calibration),
      config: {
        scenarios: [...SCENARIOS],
        seconds: SECONDS,
        concurrency: CONCURRENCY,
        warmupSeconds: WARMUP_SECONDS,
        alternatingRounds: ROUNDS,
        processesPerSide: REPLICAS,
        rateLimit: env.RATE_LIMIT_DEFAULT,
        rateLimitStore: 'redis',
        lastPosition: `company of ${SMALL_FLEET.vehicles} vehicles, random page of 50`,
        nearest: `company of ${LARGE_FLEET.vehicles} vehicles, num=10, random point`,
        safetyScore: `random vehicle of ${SMALL_FLEET.vehicles} with ${INSIGHT_DAYS} days of insight rows; intervalType=4 with a random finish day, or a 30-day instant range`,
        batteryHealth: `company of ${SMALL_FLEET.vehicles} vehicles with ${INSIGHT_DAYS} days of insight rows, random page of 50`,
        safetyScoreYear: `one vehicle, ${YEAR_POSITIONS} positions projected by query-api; intervalType=1 over the last 365 days, or a random calendar month of its history; concurrency ${YEAR_CONCURRENCY}; activity rows interleaved with ${YEAR_NEIGHBOURS} other vehicles'`,
      },
      seedingSeconds,
      ...(has('last-position')
        ? { lastPosition: compare('lastPosition', TARGET.throughputRatio, TARGET.p99Ms) }
        : {}),
      ...(has('nearest') ? { nearest: compare('nearest', TARGET.throughputRatio, TARGET.p99Ms) } : {}),
      ...(has('safety-score') ? { safetyScore: compare('safetyScore', TARGET.insightThroughputRatio) } : {}),
      ...(has('battery-health')
        ? { batteryHealth: compare('batteryHealth', TARGET.insightThroughputRatio) }
        : {}),
      ...(year
        ? {
            safetyScoreYear: {
              vehicle: {
                positions: year.rows.positions,
                history: `${new Date(year.firstFixMs).toISOString()} .. ${new Date(year.lastFixMs).toISOString()}`,
                generated: year.facts,
                seeding: year.seeding,
                rows: year.rows,
              },
              year: { service: yearSide('safetyScoreYear'), bare: yearSide('safetyScoreYearBare') },
              month: { service: yearSide('safetyScoreMonth'), bare: yearSide('safetyScoreMonthBare') },
              meetsTargets:
                latencyOf(samples.safetyScoreYear ?? []).p99 <= TARGET.yearP99Ms &&
                results.safetyScoreYear.failed === 0 &&
                results.safetyScoreMonth.failed === 0,
            },
          }
        : {}),
      peakRssMb: { 'query-api': Math.max(...queryApis.map((api) => api.peakRssMb())) },
      targets: TARGET,
      notes: [
        ...(has('safety-score')
          ? [
              `safety-score: the fleet's vehicle_activity, driving_events and trips rows are written in SQL (bench/query/insight-fleet.ts): the read side is measured; the bare server runs query-api's SafetyScoreService.scoreOf (its two queries) with no access lookup`,
            ]
          : []),
        ...(has('battery-health')
          ? [
              `battery-health: the same SQL-written rows (every parked quarter hour has a resting sample, as a tracker reporting every 10 minutes gives); the bare server runs query-api's BatteryHealthService.ofCompany (the page of vehicles and the page's evidence) with its vehicle SQL`,
            ]
          : []),
        ...(year
          ? [
              'safety-score-year: the positions were published on the positions topic and projected by the running query-api (history, last position, trips, insights); the insight tables were then VACUUM ANALYZEd as autovacuum would have over a year; the monthly history partitions of the past year were created first, as the hourly maintenance would have',
              ...(YEAR_NEIGHBOURS > 0
                ? [
                    `safety-score-year: after the projection, the vehicle's activity rows were moved to the table's end, each quarter followed by copies for ${YEAR_NEIGHBOURS} other vehicles, as a fleet's projection lays out its heap`,
                  ]
                : []),
            ]
          : []),
      ],
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const bare of bares) bare.kill('SIGTERM');
    await producer.disconnect().catch(() => undefined);
    await pool.end();
    for (const api of queryApis) await api.stop();
    if (KEEP_DATABASE) log(`the run's database is kept: ${database.url}`);
    else await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
