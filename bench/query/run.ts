/**
 * bench/query: the hottest read routes of query-api in the distributed mode (its own process, real
 * Kafka for the company projection and the positions, real PostgreSQL, Redis-backed rate limits raised
 * for the run so that the limiter runs but never refuses), each beside a bare node:http + pg server
 * that runs the same SQL, in the same run. Scenarios (`--scenarios`, a comma-separated list, all by default):
 *   - `last-position`: last positions of a company with 1,000 vehicles, page size 50;
 *   - `nearest`: nearest 10 vehicles of a company with 100,000 vehicles, from random points;
 *   - `safety-score` (issue 20): the safety score of a random vehicle of that company of 1,000, whose
 *     month of insight rows is written in SQL (bench/query/insight-fleet.queries.ts), over a week window
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
import { ChildProcess } from 'node:child_process';
import { Topics } from '@fleet/contracts';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { Pool } from 'pg';
import { BenchRun, openBenchRun } from '../common/bench-run';
import { CpuMeter } from '../common/cpu-meter';
import { log, machineFacts, round, ServiceProcess } from '../common/infra';
import { benchCompany, benchToken } from '../common/tenant';
import { analyzeSeededTables, seedFleet } from './fleet.queries';
import { seedInsights } from './insight-fleet.queries';
import { measurements } from './measurement';
import {
  CONCURRENCY,
  INSIGHT_DAYS,
  KEEP_DATABASE,
  LARGE_FLEET,
  REPLICAS,
  ROUNDS,
  SCENARIO_NAMES,
  SCENARIOS,
  SECONDS,
  SMALL_FLEET,
  TARGET,
  WARMUP_SECONDS,
  YEAR_CONCURRENCY,
  YEAR_FLEET,
  YEAR_NEIGHBOURS,
  YEAR_POSITIONS,
} from './options';
import { buildScenarios, latencyOf } from './scenarios';
import { ready, startBareServers } from './servers';
import { seedYearVehicle, YearVehicle } from './year-seeding';

const has = (scenario: string) => SCENARIOS.has(scenario);

/** The fleets the chosen scenarios read, written into query-api's tables; the seconds each took. */
async function seedPhase(pool: Pool, publisher: KafkaEventPublisher) {
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
  await analyzeSeededTables(pool);
  let year: YearVehicle | undefined;
  if (has('safety-score-year')) {
    year = await seedYearVehicle(pool, publisher, {
      ...YEAR_FLEET,
      positions: YEAR_POSITIONS,
      neighbours: YEAR_NEIGHBOURS,
    });
  }
  return { seedingSeconds, year };
}

/** Every server answers before measuring: the services for each fleet's company, the bare servers. */
async function waitUntilReady(
  serviceUrls: string[],
  bareUrls: string[],
  tokens: Record<'small' | 'large' | 'year', string>,
) {
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
}

/** Seeds, starts the bare servers, measures every chosen scenario, and prints the result. */
async function runScenarios(bench: BenchRun, queryApis: ServiceProcess[], bares: ChildProcess[]) {
  const { env, pool, kafka } = bench;
  const secret = bench.jwtSecret;
  const calibration = bench.calibration;
  for (let i = 0; i < REPLICAS; i++) queryApis.push(await ServiceProcess.start('query-api', env));
  const publisher = bench.publisher;
  await publisher.publish(
    Topics.companySnapshots,
    [SMALL_FLEET, LARGE_FLEET, YEAR_FLEET]
      .map(({ companyId }) => benchCompany(companyId))
      .map((payload) => ({
        key: String(payload.companyId),
        payload,
      })),
  );
  const { seedingSeconds, year } = await seedPhase(pool, publisher);
  const bareUrls = await startBareServers(bench.databaseUrl, bares);
  const tokens = {
    small: benchToken(secret, SMALL_FLEET.companyId),
    large: benchToken(secret, LARGE_FLEET.companyId),
    year: benchToken(secret, YEAR_FLEET.companyId),
  };
  const serviceUrls = queryApis.map((api) => api.baseUrl);
  await waitUntilReady(serviceUrls, bareUrls, tokens);

  // Closed loops through hand-parsed keep-alive clients (bench/common/http-load), the same for both
  // servers: node:http's client spent more of the shared cores on the service's larger bodies.
  const built = buildScenarios(serviceUrls, bareUrls, tokens, year);
  const { samples } = built;
  const cpu = new CpuMeter({
    'query-api': { pids: () => queryApis.map((api) => api.pid) },
    bare: { pids: () => bares.flatMap((bare) => (bare.pid ? [bare.pid] : [])) },
    postgres: { command: 'postgres' },
    redis: { command: 'redis-server' },
    kafka: { pids: kafka.pids },
    bench: { pids: () => [process.pid] },
  });
  const { results, measure, compare, yearSide } = measurements(cpu, built);
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
  built.close();

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
            `safety-score: the fleet's vehicle_activity, driving_events and trips rows are written in SQL (bench/query/insight-fleet.queries.ts): the read side is measured; the bare server runs query-api's SafetyScoreService.scoreOf (its two queries) with no access lookup`,
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
}

async function main(): Promise<void> {
  for (const scenario of SCENARIOS) {
    if (!SCENARIO_NAMES.includes(scenario)) throw new Error(`unknown scenario ${scenario}`);
  }
  const bench = await openBenchRun({
    rateLimitStore: 'redis',
    env: { RATE_LIMIT_DEFAULT: 'second=1000000', GEOCODER_PROVIDER: 'offline' },
  });
  const queryApis: ServiceProcess[] = [];
  const bares: ChildProcess[] = [];
  try {
    await runScenarios(bench, queryApis, bares);
  } finally {
    for (const bare of bares) bare.kill('SIGTERM');
    for (const api of queryApis) await api.stop();
    await bench.close({ keepDatabase: KEEP_DATABASE });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
