/**
 * The `stream` phase of bench/stream: CLIENTS SSE clients over COMPANIES companies while RATE
 * positions/s are published on the positions topic, as telemetry-ingest publishes them; half-way,
 * RESUME clients drop and reconnect with their last event id. In steps: the clients connect, the
 * positions are published (warm-up, then measured), every client is waited for until it has every
 * position of its vehicles, and what they saw is summed up. With `--slow-readers N`, N more clients
 * connect when the warm-up starts and never read (slow-readers.ts): query-api's RSS before and after
 * them, and how the server ended them.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PositionReportedV1, Topics } from '@fleet/contracts';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { CpuMeter } from '../common/cpu-meter';
import { log, percentile, round, ServiceProcess, sleep } from '../common/infra';
import {
  CLIENTS,
  COMPANIES,
  FOLLOWED,
  RATE,
  RESUME,
  SECONDS,
  SLOW_READERS,
  SLOW_READERS_WAIT_SECONDS,
  TICK_MS,
  tokenOf,
  VEHICLES,
  vehiclesOf,
  WARMUP_SECONDS,
  WHOLE_COMPANY_SHARE,
} from './options';
import { SlowReaders } from './slow-readers';
import { ClientPlan, StreamClient } from './sse-load';

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
    streamsReset: value(/^fleet_streams_ended_total\{[^}]*reason="reset"[^}]*\} ([\d.e+-]+)/m) || 0,
    streamsOverflowed: value(/^fleet_streams_ended_total\{[^}]*reason="overflow"[^}]*\} ([\d.e+-]+)/m) || 0,
  };
}
type Runtime = Awaited<ReturnType<typeof runtimeOf>>;

const latencyOf = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(percentile(sorted, p), 1);
  return { count: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: at(100) };
};

/**
 * When each position was accepted (the broker acknowledged its publish) and published, and the
 * accepted → received delays of the clients that never dropped, from `measureFrom` (epoch ms) on.
 */
class Arrivals {
  readonly accepted = new Map<string, number>();
  /** Each vehicle's published keys, in order. */
  readonly published = new Map<number, string[]>();
  readonly latencies: number[] = [];
  /** Received before the bench saw the publish acknowledged: matched once publishing is done. */
  private readonly early: [string, number][] = [];
  readonly resumed = new Set<StreamClient>();
  measureFrom = Infinity;

  readonly onPosition = (client: StreamClient, key: string, at: number) => {
    if (this.resumed.has(client) || at < this.measureFrom) return;
    const acceptedAt = this.accepted.get(key);
    if (acceptedAt === undefined) this.early.push([key, at]);
    else if (acceptedAt >= this.measureFrom) this.latencies.push(at - acceptedAt);
  };

  acceptedNow(events: readonly PositionReportedV1[]) {
    const now = Date.now();
    for (const event of events) {
      const key = `${event.vehicleId}@${event.fixTime.slice(0, 19)}`;
      this.accepted.set(key, now);
      const list = this.published.get(event.vehicleId) ?? [];
      list.push(key);
      this.published.set(event.vehicleId, list);
    }
  }

  matchEarly() {
    for (const [key, at] of this.early) {
      const acceptedAt = this.accepted.get(key);
      if (acceptedAt !== undefined && acceptedAt >= this.measureFrom) this.latencies.push(at - acceptedAt);
    }
  }

  /** Positions of the client's vehicles it has not received. */
  missingOf(client: StreamClient) {
    let missing = 0;
    for (const vehicleId of client.wanted)
      for (const key of this.published.get(vehicleId) ?? []) if (!client.received.has(key)) missing++;
    return missing;
  }

  get publishedCount() {
    return [...this.published.values()].reduce((sum, list) => sum + list.length, 0);
  }
}

/** The clients, connected 100 at a time; fails if any was refused. */
async function connectClients(api: ServiceProcess, secret: string, arrivals: Arrivals) {
  const companies = Array.from({ length: COMPANIES }, (_, index) => index + 1);
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
      token: tokenOf(secret, companyId, index),
      companyVehicles: new Set(own),
      vehicleIds: whole ? null : Array.from({ length: FOLLOWED }, (_, k) => own[(start + k) % own.length]),
    };
    clients.push(new StreamClient(plan, api.baseUrl, arrivals.onPosition));
  }
  log(`stream: connecting ${CLIENTS} clients`);
  for (let at = 0; at < clients.length; at += 100)
    await Promise.all(clients.slice(at, at + 100).map((c) => c.connect()));
  const refused = clients.filter((client) => client.status !== 200).length;
  if (refused > 0) throw new Error(`${refused} clients were refused`);
  return clients;
}

/** RESUME clients drop their connection and reconnect a second later with their last event id. */
function dropForResume(clients: StreamClient[], arrivals: Arrivals) {
  const dropped = clients
    .filter((_, index) => index % Math.max(1, Math.floor(CLIENTS / RESUME)) === 0)
    .slice(0, RESUME);
  for (const client of dropped) {
    arrivals.resumed.add(client);
    client.drop();
  }
  log(`stream: ${dropped.length} clients dropped; they reconnect in 1 s with their last id`);
  setTimeout(() => void Promise.all(dropped.map((client) => client.connect())), 1000);
}

/** `perTick` positions of the next vehicles in turn, each vehicle's fixes a second apart. */
function positionSource() {
  const vehicleCount = COMPANIES * VEHICLES;
  const fixSecond = new Array<number>(vehicleCount + 1).fill(0);
  const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
  let next = 0;
  return (perTick: number): PositionReportedV1[] =>
    Array.from({ length: perTick }, () => {
      const vehicleId = (next++ % vehicleCount) + 1;
      const second = fixSecond[vehicleId]++;
      return {
        eventId: randomUUID(),
        vehicleId,
        imei: `35${String(vehicleId).padStart(13, '0')}`,
        fixTime: new Date(base + second * 1000).toISOString(),
        receivedAt: new Date().toISOString(),
        lat: 52.52 + (vehicleId % 100) * 0.001,
        lng: 13.405 + second * 0.0001,
        speedKmh: 40,
        course: 90,
        ignition: true,
      };
    });
}

/**
 * Publishes RATE positions/s for WARMUP_SECONDS, then SECONDS measured (the clients drop half-way);
 * the measured seconds, the CPU meter's reading and the runtime figures from where measuring began.
 */
async function publish(
  api: ServiceProcess,
  publisher: KafkaEventPublisher,
  meter: CpuMeter,
  clients: StreamClient[],
  arrivals: Arrivals,
  slow: SlowReaders,
  rss: number[],
) {
  let slowFrom: { rssMb: number; sample: number; opened: Promise<void>; resetBefore: number } | undefined;
  const nextPositions = positionSource();
  const perTick = Math.round((RATE * TICK_MS) / 1000);
  const warmupTicks = (WARMUP_SECONDS * 1000) / TICK_MS;
  const ticks = warmupTicks + (SECONDS * 1000) / TICK_MS;
  let cpu: (() => Record<string, number>) | undefined;
  let runtimeBefore: Runtime | undefined;
  const started = performance.now();
  let measuredFrom = started;
  let resumed = false;
  const sends: Promise<void>[] = [];
  // With slow readers, the flow goes on past the measured seconds until the server reset every one of
  // them (bounded): a reader that never reads first fills the kernel's socket buffers (not query-api's
  // memory), and only then query-api's, at its company's rate.
  const slowDeadline = ticks + (SLOW_READERS_WAIT_SECONDS * 1000) / TICK_MS;
  for (let tick = 0; tick < ticks || (SLOW_READERS > 0 && tick < slowDeadline); tick++) {
    if (tick === 0 && SLOW_READERS > 0) {
      // With the warm-up, as the other clients connect before it: their connections and tokens are not
      // what is measured; their filling buffers, their resets and what they cost the others are.
      const resetBefore = (await runtimeOf(api)).streamsReset;
      slowFrom = { rssMb: rssMb(api.pid), sample: rss.length, opened: slow.open(), resetBefore };
      log(`stream: ${SLOW_READERS} slow readers connecting`);
    }
    if (tick >= ticks && tick % (2000 / TICK_MS) === 0) {
      const reset = (await runtimeOf(api)).streamsReset - slowFrom!.resetBefore;
      if (reset >= SLOW_READERS) break;
      if (tick === ticks)
        log(`stream: measured; publishing on until the ${SLOW_READERS} slow readers are reset`);
    }
    if (tick === warmupTicks) {
      runtimeBefore = await runtimeOf(api);
      arrivals.measureFrom = Date.now();
      measuredFrom = performance.now();
      cpu = meter.start();
      log('stream: warm-up done; measuring');
    }
    const events = nextPositions(perTick);
    sends.push(
      publisher
        .publish(
          Topics.positions,
          events.map((payload) => ({ key: String(payload.vehicleId), payload })),
        )
        .then(() => arrivals.acceptedNow(events)),
    );
    if (!resumed && tick >= warmupTicks + (SECONDS * 1000) / TICK_MS / 2) {
      resumed = true;
      dropForResume(clients, arrivals);
    }
    const due = started + (tick + 1) * TICK_MS;
    await sleep(Math.max(0, due - performance.now()));
  }
  await Promise.all(sends);
  await slowFrom?.opened;
  return {
    publishSeconds: (performance.now() - measuredFrom) / 1000,
    cpu: cpu!,
    runtimeBefore: runtimeBefore!,
    slowFrom,
  };
}

/**
 * What the slow readers cost and how the server ended them: query-api's RSS just before they
 * connected, its peak after, and at the end; resets counted by the server (its metric) and as the
 * readers saw them when they finally read (a reset more than 30 s old may be gone: the server destroys
 * the socket of a stream it ended once that grace has passed).
 */
async function slowReadersOf(
  slow: SlowReaders,
  from: { rssMb: number; sample: number; resetBefore: number } | undefined,
  rss: number[],
  runtime: { before: Runtime; after: Runtime },
  clients: StreamClient[],
) {
  if (!from) return undefined;
  const after = rss.slice(from.sample);
  const peak = Math.max(...after);
  const seen = await slow.readRest();
  return {
    clients: slow.count,
    rssMb: { before: from.rssMb, peak, atEnd: after.at(-1) ?? from.rssMb },
    rssGrowthMb: peak - from.rssMb,
    resetByServer: runtime.after.streamsReset - from.resetBefore,
    overflowedByServer: runtime.after.streamsOverflowed - runtime.before.streamsOverflowed,
    normalClientsReset: clients.filter((client) => client.ended === 'reset').length,
    asSeenByTheReaders: seen,
  };
}

/** What the clients saw, summed up. */
function summaryOf(
  clients: StreamClient[],
  arrivals: Arrivals,
  measured: { publishSeconds: number; rss: number[]; cpuPercent: Record<string, number> },
  runtime: { before: Runtime; after: Runtime },
  slowReaders: Awaited<ReturnType<typeof slowReadersOf>>,
) {
  const resumed = [...arrivals.resumed];
  const seconds = measured.publishSeconds + WARMUP_SECONDS;
  const delivered = clients.reduce((sum, client) => sum + client.events, 0);
  const { before, after } = runtime;
  return {
    clients: CLIENTS,
    companies: COMPANIES,
    vehiclesPerCompany: VEHICLES,
    followingWholeCompany: clients.filter((client) => client.plan.vehicleIds === null).length,
    followingVehicles: clients.filter((client) => client.plan.vehicleIds !== null).length,
    positionsPublished: arrivals.publishedCount,
    publishedPerSecond: round(arrivals.publishedCount / seconds, 0),
    eventsDelivered: delivered,
    eventsDeliveredPerSecond: round(delivered / seconds, 0),
    acceptedToReceivedMs: latencyOf(arrivals.latencies),
    queryApiRssMb: { max: Math.max(...measured.rss), samples: measured.rss.length },
    violations: clients.reduce((sum, client) => sum + client.violations, 0),
    lost: clients.reduce((sum, client) => sum + arrivals.missingOf(client), 0),
    duplicated: clients.reduce((sum, client) => sum + client.duplicates, 0),
    endedByServer: clients.filter((client) => client.ended).map((client) => client.ended),
    resume: {
      clients: resumed.length,
      reconnected: resumed.filter((client) => client.connections === 2 && client.status === 200).length,
      lost: resumed.reduce((sum, client) => sum + arrivals.missingOf(client), 0),
      duplicated: resumed.reduce((sum, client) => sum + client.duplicates, 0),
    },
    cpuPercentOfOneCore: measured.cpuPercent,
    queryApiRuntime: {
      gcMajorSeconds: round(after.gcMajorSeconds - before.gcMajorSeconds, 2),
      gcMajorCount: after.gcMajorCount - before.gcMajorCount,
      gcMinorSeconds: round(after.gcMinorSeconds - before.gcMinorSeconds, 2),
      eventLoopLagP99MsAtEnd: round(after.eventLoopLagP99Seconds * 1000, 1),
      eventLoopLagMaxMsAtEnd: round(after.eventLoopLagMaxSeconds * 1000, 1),
    },
    slowReaders,
  };
}

export async function streamPhase(
  api: ServiceProcess,
  publisher: KafkaEventPublisher,
  meter: CpuMeter,
  secret: string,
) {
  const arrivals = new Arrivals();
  const clients = await connectClients(api, secret, arrivals);
  log(`stream: ${CLIENTS} clients open; publishing ${RATE} positions/s for ${WARMUP_SECONDS} + ${SECONDS} s`);
  const rss: number[] = [];
  const rssTimer = setInterval(() => rss.push(rssMb(api.pid)), 1000);
  const companyOf = (index: number) => (index % COMPANIES) + 1;
  // Tokens of their own keys (after the normal clients'), so the per-key limit is not what refuses them.
  const slow = new SlowReaders(
    api.baseUrl,
    Array.from({ length: SLOW_READERS }, (_, index) => tokenOf(secret, companyOf(index), CLIENTS + index)),
  );
  const { publishSeconds, cpu, runtimeBefore, slowFrom } = await publish(
    api,
    publisher,
    meter,
    clients,
    arrivals,
    slow,
    rss,
  );
  arrivals.matchEarly();
  log('stream: publishing done; waiting until every client has every position of its vehicles');
  const drainStart = performance.now();
  while (performance.now() - drainStart < 60_000 && clients.some((client) => arrivals.missingOf(client) > 0))
    await sleep(500);
  const cpuPercent = cpu();
  const runtimeAfter = await runtimeOf(api);
  clearInterval(rssTimer);
  const runtime = { before: runtimeBefore, after: runtimeAfter };
  const slowReaders = await slowReadersOf(slow, slowFrom, rss, runtime, clients);
  const summary = summaryOf(clients, arrivals, { publishSeconds, rss, cpuPercent }, runtime, slowReaders);
  for (const client of clients) client.drop();
  slow.close();
  return summary;
}
