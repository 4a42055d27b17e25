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
 * Usage: npm run bench:stream [-- --mode stream,feed --clients 2000 --companies 20 --vehicles 100
 *   --rate 2000 --seconds 60 --resume 100 --whole-company-share 0.05 --followed 5 --feed-positions 1000000]
 * Prints one JSON document on stdout, progress on stderr.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { PositionReportedV1, Topics } from '@fleet/contracts';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { sign } from 'jsonwebtoken';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { CpuMeter } from '../common/cpu-meter';
import {
  calibrate,
  createBenchDatabase,
  deleteNamespaceTopics,
  ensureKafka,
  log,
  machineFacts,
  numberFlag,
  percentile,
  round,
  ServiceProcess,
  setFlag,
  sleep,
} from '../common/infra';
import { benchCompany } from '../common/tenant';
import { ClientPlan, StreamClient } from './sse-load';
import { analyzePositions, insertCompanyVehicles, insertFeedChunk } from './stream.queries';

const MODES = setFlag('mode', ['stream', 'feed']);
const CLIENTS = numberFlag('clients', 2_000);
const COMPANIES = numberFlag('companies', 20);
const VEHICLES = numberFlag('vehicles', 100);
const RATE = numberFlag('rate', 2_000);
const SECONDS = numberFlag('seconds', 60);
/** Publishing before the measured seconds: the services' JIT compilers start cold. */
const WARMUP_SECONDS = numberFlag('warmup', 10);
const RESUME = numberFlag('resume', 100);
const WHOLE_COMPANY_SHARE = numberFlag('whole-company-share', 0.05);
const FOLLOWED = numberFlag('followed', 5);
const FEED_POSITIONS = numberFlag('feed-positions', 1_000_000);
const TARGET = { p99Ms: 250, rssMb: 300, feedPositionsPerSecond: 50_000 };
const SECRET = 'bench-stream-secret-0123456789abcdef0123456789abcdef';
const TICK_MS = 100;

/** A token per client: each is its own API key, so the per-key stream limit is not what is measured. */
const tokenOf = (companyId: number, client: number) =>
  sign(
    { sub: `apikey:${client}`, UserId: '0', CompanyId: String(companyId), TimeZone: 'Europe/Berlin' },
    SECRET,
    { algorithm: 'HS256', expiresIn: 3600 },
  );

const rssMb = (pid: number) => {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 1024);
};

/** Garbage collection and event-loop figures from a service's /metrics (prom-client's defaults). */
async function runtimeOf(api: ServiceProcess) {
  const text = await (await fetch(`${api.baseUrl}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
  return {
    gcMajorSeconds: value(/^nodejs_gc_duration_seconds_sum\{[^}]*kind="major"[^}]*\} ([\d.e+-]+)/m),
    gcMajorCount: value(/^nodejs_gc_duration_seconds_count\{[^}]*kind="major"[^}]*\} ([\d.e+-]+)/m),
    gcMinorSeconds: value(/^nodejs_gc_duration_seconds_sum\{[^}]*kind="minor"[^}]*\} ([\d.e+-]+)/m),
    eventLoopLagP99Seconds: value(/^nodejs_eventloop_lag_p99_seconds\{[^}]*\} ([\d.e+-]+)/m),
    eventLoopLagMaxSeconds: value(/^nodejs_eventloop_lag_max_seconds\{[^}]*\} ([\d.e+-]+)/m),
  };
}

const latencyOf = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(percentile(sorted, p), 1);
  return { count: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: at(100) };
};

/** Vehicle ids of a company: 1..VEHICLES for company 1, and so on. */
const vehiclesOf = (companyId: number) =>
  Array.from({ length: VEHICLES }, (_, index) => (companyId - 1) * VEHICLES + index + 1);

async function seedRegistry(pool: Pool, companies: number[], vehiclesOfCompany: (id: number) => number[]) {
  for (const companyId of companies) {
    await insertCompanyVehicles(pool, companyId, vehiclesOfCompany(companyId));
  }
}

async function streamPhase(api: ServiceProcess, publisher: KafkaEventPublisher, meter: CpuMeter) {
  const companies = Array.from({ length: COMPANIES }, (_, index) => index + 1);
  const accepted = new Map<string, number>();
  const latencies: number[] = [];
  const early: [string, number][] = [];
  const resumedClients = new Set<StreamClient>();
  let measureFrom = Infinity;
  const onPosition = (client: StreamClient, key: string, at: number) => {
    if (resumedClients.has(client) || at < measureFrom) return;
    const acceptedAt = accepted.get(key);
    if (acceptedAt === undefined) early.push([key, at]);
    else if (acceptedAt >= measureFrom) latencies.push(at - acceptedAt);
  };
  const clients: StreamClient[] = [];
  for (let index = 0; index < CLIENTS; index++) {
    const companyId = companies[index % companies.length];
    const own = vehiclesOf(companyId);
    // Every 1/share-th client of each company follows all of it.
    const whole = Math.floor(index / companies.length) % Math.round(1 / WHOLE_COMPANY_SHARE) === 0;
    const start = (index * 7) % own.length;
    const plan: ClientPlan = {
      index,
      companyId,
      token: tokenOf(companyId, index),
      companyVehicles: new Set(own),
      vehicleIds: whole ? null : Array.from({ length: FOLLOWED }, (_, k) => own[(start + k) % own.length]),
    };
    clients.push(new StreamClient(plan, api.baseUrl, onPosition));
  }
  log(`stream: connecting ${CLIENTS} clients`);
  for (let at = 0; at < clients.length; at += 100)
    await Promise.all(clients.slice(at, at + 100).map((c) => c.connect()));
  const refused = clients.filter((client) => client.status !== 200).length;
  if (refused > 0) throw new Error(`${refused} clients were refused`);
  log(`stream: ${CLIENTS} clients open; publishing ${RATE} positions/s for ${WARMUP_SECONDS} + ${SECONDS} s`);

  const vehicleCount = COMPANIES * VEHICLES;
  const fixSecond = new Array<number>(vehicleCount + 1).fill(0);
  const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
  const published = new Map<number, string[]>();
  let next = 0;
  const perTick = Math.round((RATE * TICK_MS) / 1000);
  const rss: number[] = [];
  const rssTimer = setInterval(() => rss.push(rssMb(api.pid)), 1000);
  let cpu: (() => Record<string, number>) | undefined;
  let runtimeBefore: Awaited<ReturnType<typeof runtimeOf>> | undefined;
  const warmupTicks = (WARMUP_SECONDS * 1000) / TICK_MS;
  const started = performance.now();
  let measuredFrom = started;
  let resumeAt: number | undefined;
  const sends: Promise<void>[] = [];
  for (let tick = 0; tick < warmupTicks + (SECONDS * 1000) / TICK_MS; tick++) {
    if (tick === warmupTicks) {
      runtimeBefore = await runtimeOf(api);
      measureFrom = Date.now();
      measuredFrom = performance.now();
      cpu = meter.start();
      log('stream: warm-up done; measuring');
    }
    const events: PositionReportedV1[] = [];
    for (let k = 0; k < perTick; k++) {
      const vehicleId = (next++ % vehicleCount) + 1;
      const second = fixSecond[vehicleId]++;
      const fixTime = new Date(base + second * 1000).toISOString();
      events.push({
        eventId: randomUUID(),
        vehicleId,
        imei: `35${String(vehicleId).padStart(13, '0')}`,
        fixTime,
        receivedAt: new Date().toISOString(),
        lat: 52.52 + (vehicleId % 100) * 0.001,
        lng: 13.405 + second * 0.0001,
        speedKmh: 40,
        course: 90,
        ignition: true,
      });
    }
    sends.push(
      publisher
        .publish(
          Topics.positions,
          events.map((payload) => ({ key: String(payload.vehicleId), payload })),
        )
        .then(() => {
          const now = Date.now();
          for (const event of events) {
            const key = `${event.vehicleId}@${event.fixTime.slice(0, 19)}`;
            accepted.set(key, now);
            const list = published.get(event.vehicleId) ?? [];
            list.push(key);
            published.set(event.vehicleId, list);
          }
        }),
    );
    if (resumeAt === undefined && tick >= warmupTicks + (SECONDS * 1000) / TICK_MS / 2) {
      resumeAt = tick;
      const dropped = clients
        .filter((_, index) => index % Math.max(1, Math.floor(CLIENTS / RESUME)) === 0)
        .slice(0, RESUME);
      for (const client of dropped) {
        resumedClients.add(client);
        client.drop();
      }
      log(`stream: ${dropped.length} clients dropped; they reconnect in 1 s with their last id`);
      setTimeout(() => void Promise.all(dropped.map((client) => client.connect())), 1000);
    }
    const due = started + (tick + 1) * TICK_MS;
    await sleep(Math.max(0, due - performance.now()));
  }
  await Promise.all(sends);
  const publishSeconds = (performance.now() - measuredFrom) / 1000;
  for (const [key, at] of early) {
    const acceptedAt = accepted.get(key);
    if (acceptedAt !== undefined && acceptedAt >= measureFrom) latencies.push(at - acceptedAt);
  }
  log('stream: publishing done; waiting until every client has every position of its vehicles');
  const missingOf = (client: StreamClient) => {
    let missing = 0;
    for (const vehicleId of client.wanted)
      for (const key of published.get(vehicleId) ?? []) if (!client.received.has(key)) missing++;
    return missing;
  };
  const drainStart = performance.now();
  while (performance.now() - drainStart < 60_000 && clients.some((client) => missingOf(client) > 0))
    await sleep(500);
  const cpuPercent = cpu!();
  const runtimeAfter = await runtimeOf(api);
  clearInterval(rssTimer);
  const lost = clients.reduce((sum, client) => sum + missingOf(client), 0);
  const resumed = [...resumedClients];
  const summary = {
    clients: CLIENTS,
    companies: COMPANIES,
    vehiclesPerCompany: VEHICLES,
    followingWholeCompany: clients.filter((client) => client.plan.vehicleIds === null).length,
    followingVehicles: clients.filter((client) => client.plan.vehicleIds !== null).length,
    positionsPublished: [...published.values()].reduce((sum, list) => sum + list.length, 0),
    publishedPerSecond: round(
      [...published.values()].reduce((sum, list) => sum + list.length, 0) / (publishSeconds + WARMUP_SECONDS),
      0,
    ),
    eventsDelivered: clients.reduce((sum, client) => sum + client.events, 0),
    eventsDeliveredPerSecond: round(
      clients.reduce((sum, client) => sum + client.events, 0) / (publishSeconds + WARMUP_SECONDS),
      0,
    ),
    acceptedToReceivedMs: latencyOf(latencies),
    queryApiRssMb: { max: Math.max(...rss), samples: rss.length },
    violations: clients.reduce((sum, client) => sum + client.violations, 0),
    lost,
    duplicated: clients.reduce((sum, client) => sum + client.duplicates, 0),
    endedByServer: clients.filter((client) => client.ended).map((client) => client.ended),
    resume: {
      clients: resumed.length,
      reconnected: resumed.filter((client) => client.connections === 2 && client.status === 200).length,
      lost: resumed.reduce((sum, client) => sum + missingOf(client), 0),
      duplicated: resumed.reduce((sum, client) => sum + client.duplicates, 0),
    },
    cpuPercentOfOneCore: cpuPercent,
    queryApiRuntime: {
      gcMajorSeconds: round(runtimeAfter.gcMajorSeconds - runtimeBefore!.gcMajorSeconds, 2),
      gcMajorCount: runtimeAfter.gcMajorCount - runtimeBefore!.gcMajorCount,
      gcMinorSeconds: round(runtimeAfter.gcMinorSeconds - runtimeBefore!.gcMinorSeconds, 2),
      eventLoopLagP99MsAtEnd: round(runtimeAfter.eventLoopLagP99Seconds * 1000, 1),
      eventLoopLagMaxMsAtEnd: round(runtimeAfter.eventLoopLagMaxSeconds * 1000, 1),
    },
  };
  for (const client of clients) client.drop();
  return summary;
}

async function feedPhase(api: ServiceProcess, pool: Pool) {
  const companyId = COMPANIES + 1;
  const vehicleCount = 1_000;
  const first = COMPANIES * VEHICLES + 1;
  const ids = Array.from({ length: vehicleCount }, (_, index) => first + index);
  await seedRegistry(pool, [companyId], () => ids);
  log(`feed: writing ${FEED_POSITIONS} positions`);
  const perVehicle = Math.ceil(FEED_POSITIONS / vehicleCount);
  const chunks = 10;
  const perChunk = Math.ceil(perVehicle / chunks);
  for (let chunk = 0; chunk < chunks; chunk++) {
    // One transaction per chunk, so the rows span several transactions as a projection writes them.
    await insertFeedChunk(pool, {
      ids,
      from: chunk * perChunk,
      to: Math.min(perVehicle, (chunk + 1) * perChunk) - 1,
      first,
      perVehicle,
      total: FEED_POSITIONS,
    });
  }
  await analyzePositions(pool);
  const token = tokenOf(companyId, 1_000_000);
  let cursor: string | undefined;
  let items = 0;
  let pages = 0;
  const seen = new Set<string>();
  let duplicates = 0;
  const started = performance.now();
  for (;;) {
    const query = new URLSearchParams({
      limit: '5000',
      ...(cursor ? { cursor } : { since: '2000-01-01T00:00:00Z' }),
    });
    const response = await fetch(`${api.baseUrl}/v2/api/feed/positions?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`feed: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as {
      items: { deviceId: number; utcTime: string }[];
      cursor: string;
      hasMore: boolean;
    };
    pages++;
    items += page.items.length;
    for (const item of page.items) {
      const key = `${item.deviceId}@${item.utcTime}`;
      if (seen.has(key)) duplicates++;
      else seen.add(key);
    }
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    positions: FEED_POSITIONS,
    read: items,
    distinct: seen.size,
    duplicates,
    pages,
    pageSize: 5000,
    seconds: round(seconds, 1),
    positionsPerSecond: round(items / seconds, 0),
  };
}

async function main(): Promise<void> {
  const calibrationBefore = calibrate();
  const kafka = ensureKafka();
  const database = await createBenchDatabase();
  const namespace = `bench-stream-${randomUUID().slice(0, 8)}`;
  const pool = new Pool({ connectionString: database.url, max: 2 });
  const producer = new Kafka({
    clientId: 'bench-stream',
    brokers: kafka.brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).producer({
    idempotent: true,
  });
  let api: ServiceProcess | undefined;
  try {
    api = await ServiceProcess.start('query-api', {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: kafka.brokers,
      KAFKA_NAMESPACE: namespace,
      AUTH_JWT_SECRET: SECRET,
      RATE_LIMIT_DEFAULT: 'second=1000000',
      STREAM_MAX_PER_KEY: '10',
    });
    await producer.connect();
    const publisher = new KafkaEventPublisher(producer, namespace);
    const companies = Array.from({ length: COMPANIES + 1 }, (_, index) => index + 1);
    await publisher.publish(
      Topics.companySnapshots,
      companies.map((companyId) => ({ key: String(companyId), payload: benchCompany(companyId) })),
    );
    await seedRegistry(pool, companies.slice(0, COMPANIES), vehiclesOf);
    // query-api knows the companies once a company route answers 200.
    for (const companyId of companies) {
      for (;;) {
        const answer = await fetch(`${api.baseUrl}/v2/api/companies/${companyId}/vehicles/last-position`, {
          headers: { authorization: `Bearer ${tokenOf(companyId, 0)}` },
        });
        if (answer.status === 200) break;
        await sleep(200);
      }
    }
    const meter = new CpuMeter({
      'query-api': { pids: () => [api!.pid] },
      kafka: { pids: () => kafka.pids() },
      postgres: { command: 'postgres' },
      bench: { pids: () => [process.pid] },
    });
    const stream = MODES.has('stream') ? await streamPhase(api, publisher, meter) : undefined;
    const feed = MODES.has('feed') ? await feedPhase(api, pool) : undefined;
    const result = {
      bench: 'stream',
      machine: machineFacts(calibrationBefore),
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
      meetsTargets: {
        ...(stream
          ? {
              acceptedToReceivedP99: stream.acceptedToReceivedMs.p99 <= TARGET.p99Ms,
              rss: stream.queryApiRssMb.max <= TARGET.rssMb,
              noViolations: stream.violations === 0,
              resumeLosesNothing: stream.resume.lost === 0 && stream.resume.duplicated === 0,
              nothingLost: stream.lost === 0 && stream.duplicated === 0,
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
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await producer.disconnect().catch(() => undefined);
    await pool.end();
    await api?.stop();
    await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
