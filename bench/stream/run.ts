/**
 * bench/stream (issue 30): the live stream and the change feed of query-api in the distributed mode
 * (query-api its own process as deployed, real Kafka, real PostgreSQL). Two phases (`--mode`):
 *   - `stream`: `--clients` SSE clients (2,000) over `--companies` companies (20) of `--vehicles`
 *     vehicles each (100) while `--rate` positions/s (2,000) are published on the positions topic, as
 *     telemetry-ingest publishes them, for `--seconds` (60). A share of the clients
 *     (`--whole-company-share`, 0.05) follows its whole company, the others `--followed` (5) vehicles
 *     of it (`vehicleIds`), as dispatch screens and driver apps do. Half-way, `--resume` clients (100)
 *     drop their connection and reconnect a second later with their last event id.
 *     Measured: accepted (the broker acknowledged the publish) → event received, p50/p90/p99, over
 *     the clients that never dropped; query-api's RSS (VmRSS sampled every second); every event
 *     checked against its client's company and vehicles (violations); for every client, positions of
 *     its vehicles not received (lost) and received twice (duplicated).
 *   - `feed`: `--feed-positions` (1,000,000) positions written in SQL for one company, then paged
 *     through with `GET /v2/api/feed/positions?limit=5000`: positions read per second, every one
 *     once.
 *     With `--slow-readers N` (issue 54), N more clients connect when the warm-up starts and never read
 *     (raw sockets, whole company each): query-api's RSS before them and at its peak after, how many
 *     the server reset (STREAM_MAX_BUFFER_KB), and the other clients' p99 beside them.
 * Usage: npm run bench:stream [-- --mode stream,feed --clients 2000 --companies 20 --vehicles 100
 *   --rate 2000 --seconds 60 --resume 100 --whole-company-share 0.05 --followed 5 --feed-positions 1000000
 *   --slow-readers 0]
 * Prints one JSON document on stdout, progress on stderr.
 */
import 'reflect-metadata';
import { Topics } from '@fleet/contracts';
import { BenchRun, openBenchRun } from '../common/bench-run';
import { CpuMeter } from '../common/cpu-meter';
import { machineFacts, ServiceProcess, sleep } from '../common/infra';
import { benchCompany } from '../common/tenant';
import { feedPhase } from './feed-phase';
import {
  CLIENTS,
  COMPANIES,
  FEED_POSITIONS,
  FOLLOWED,
  MODES,
  RATE,
  RESUME,
  SECONDS,
  seedRegistry,
  SLOW_READERS,
  TARGET,
  tokenOf,
  VEHICLES,
  vehiclesOf,
  WARMUP_SECONDS,
  WHOLE_COMPANY_SHARE,
} from './options';
import { streamPhase } from './stream-phase';

/** The companies (the feed's one more) on their topic, the stream's vehicles in query-api's registry. */
async function defineFleet(bench: BenchRun, api: ServiceProcess) {
  const companies = Array.from({ length: COMPANIES + 1 }, (_, index) => index + 1);
  await bench.publisher.publish(
    Topics.companySnapshots,
    companies.map((companyId) => ({ key: String(companyId), payload: benchCompany(companyId) })),
  );
  await seedRegistry(bench.pool, companies.slice(0, COMPANIES), vehiclesOf);
  // query-api knows the companies once a company route answers 200.
  for (const companyId of companies) {
    for (;;) {
      const answer = await fetch(`${api.baseUrl}/v2/api/companies/${companyId}/vehicles/last-position`, {
        headers: { authorization: `Bearer ${tokenOf(bench.jwtSecret, companyId, 0)}` },
      });
      if (answer.status === 200) break;
      await sleep(200);
    }
  }
}

type StreamFigures = Awaited<ReturnType<typeof streamPhase>>;
type FeedFigures = Awaited<ReturnType<typeof feedPhase>>;

function meetsTargets(stream: StreamFigures | undefined, feed: FeedFigures | undefined) {
  return {
    ...(stream
      ? {
          acceptedToReceivedP99: stream.acceptedToReceivedMs.p99 <= TARGET.p99Ms,
          rss: stream.queryApiRssMb.max <= TARGET.rssMb,
          noViolations: stream.violations === 0,
          resumeLosesNothing: stream.resume.lost === 0 && stream.resume.duplicated === 0,
          nothingLost: stream.lost === 0 && stream.duplicated === 0,
          ...(stream.slowReaders
            ? {
                slowReadersRssGrowth: stream.slowReaders.rssGrowthMb <= TARGET.slowReadersRssGrowthMb,
                everySlowReaderReset: stream.slowReaders.resetByServer >= stream.slowReaders.clients,
                noNormalClientReset: stream.slowReaders.normalClientsReset === 0,
              }
            : {}),
        }
      : {}),
    ...(feed
      ? {
          feedRate:
            feed.positionsPerSecond >= TARGET.feedPositionsPerSecond &&
            feed.duplicates === 0 &&
            feed.distinct === FEED_POSITIONS,
        }
      : {}),
  };
}

async function main(): Promise<void> {
  const bench = await openBenchRun({
    rateLimitStore: 'redis',
    env: { RATE_LIMIT_DEFAULT: 'second=1000000', STREAM_MAX_PER_KEY: '10' },
  });
  let api: ServiceProcess | undefined;
  try {
    api = await ServiceProcess.start('query-api', bench.env);
    await defineFleet(bench, api);
    const queryApi = api;
    const meter = new CpuMeter({
      'query-api': { pids: () => [queryApi.pid] },
      kafka: { pids: () => bench.kafka.pids() },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    });
    const stream = MODES.has('stream')
      ? await streamPhase(api, bench.publisher, meter, bench.jwtSecret)
      : undefined;
    const feed = MODES.has('feed') ? await feedPhase(api, bench.pool, bench.jwtSecret) : undefined;
    const result = {
      bench: 'stream',
      machine: machineFacts(bench.calibration),
      config: {
        clients: CLIENTS,
        companies: COMPANIES,
        vehiclesPerCompany: VEHICLES,
        positionsPerSecond: RATE,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        resume: RESUME,
        wholeCompanyShare: WHOLE_COMPANY_SHARE,
        followedVehicles: FOLLOWED,
        feedPositions: FEED_POSITIONS,
        slowReaders: SLOW_READERS,
        geocoder: 'offline (the default)',
        atIssueSizes:
          CLIENTS === 2_000 &&
          COMPANIES === 20 &&
          RATE === 2_000 &&
          RESUME === 100 &&
          FEED_POSITIONS === 1_000_000,
      },
      stream,
      feed,
      peakRssMb: { 'query-api': api.peakRssMb() },
      targets: TARGET,
      meetsTargets: meetsTargets(stream, feed),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await api?.stop();
    await bench.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
