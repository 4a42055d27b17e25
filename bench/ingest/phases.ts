/**
 * The phases of bench/ingest: the warm-up, the closed loops (batches, single OsmAnd reports) measured
 * to acceptance and to storage, and the paced load measured to visibility in the query projections.
 */
import { Pool } from 'pg';
import { CpuMeter } from '../common/cpu-meter';
import { closedLoop, HttpClient } from '../common/http-load';
import { log, percentile, round, ServiceProcess, sleep } from '../common/infra';
import { pacedBatches } from '../common/paced-batches';
import { lastFixTimes } from './ingest.queries';
import { BATCH_SIZE, FleetLoad } from './load';
import { imeiOf } from './setup';

/**
 * Both shapes of load, unmeasured: the broker's JIT compiles the paths of small produce and fetch
 * requests separately from those of large ones, and compiling them cost it ~40% of a core well into a
 * measured phase that came first with only batches warmed (docs/performance.md). `shapes` leaves out
 * the shape no measured phase sends (`--phases`).
 */
export async function warmUp(
  load: FleetLoad,
  seconds: number,
  trackers: number,
  shapes = { batches: true, singles: true },
) {
  // The token's company reaches ingest's company projection on its own topic: wait for it.
  for (const deadline = performance.now() + 60_000; (await load.sendBatch()) !== 200; await sleep(200)) {
    if (performance.now() > deadline) throw new Error('the batch endpoint refused the bench token for 60 s');
  }
  if (seconds <= 0) return;
  log(
    `warm-up: ${shapes.batches ? 'batches, ' : ''}${shapes.singles ? 'single reports, ' : ''}${seconds} s each, not measured`,
  );
  const warmBatches = shapes.batches ? await closedLoop(8, seconds * 1000, load.sendBatch) : { ok: 0 };
  const warmSingles = shapes.singles
    ? await closedLoop(trackers, seconds * 1000, load.sendSingle)
    : { ok: 0 };
  await load.waitStored(warmBatches.ok * BATCH_SIZE + warmSingles.ok, performance.now());
}

/**
 * A closed loop of `concurrency` senders for `seconds`, each request carrying `perRequest` positions:
 * the loop's figures, the positions accepted, the seconds until all were stored, and the CPU.
 */
export async function closedPhase(
  load: FleetLoad,
  cpu: CpuMeter,
  run: { concurrency: number; seconds: number; perRequest: number; send: () => Promise<number> },
) {
  const cpuOfPhase = cpu.start();
  const storedBefore = await load.stored();
  const started = performance.now();
  const loop = await closedLoop(run.concurrency, run.seconds * 1000, run.send);
  const accepted = loop.ok * run.perRequest;
  const endToEndS = await load.waitStored(storedBefore + accepted, started);
  return { loop, accepted, endToEndS, cpu: cpuOfPhase() };
}

/** Polls last positions every 10 ms until every vehicle of each accepted batch has its fix. */
function visibilityWatch(pool: Pool) {
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
  return {
    outstanding,
    /** Stops polling once nothing is outstanding, or after 60 s; the delays, sorted. */
    finish: async () => {
      polling = false;
      await Promise.race([poller, sleep(60_000)]);
      return delays.sort((a, b) => a - b);
    },
  };
}

/** 5,000 positions/s (50 batches of 100 a second) for `seconds`: acceptance-to-visibility delay. */
export async function pacedPhase(
  load: FleetLoad,
  cpu: CpuMeter,
  setup: { ingest: ServiceProcess; pool: Pool; authorization: string },
  seconds: number,
) {
  const cpuOfPhase = cpu.start();
  const pacedClient = new HttpClient(setup.ingest.baseUrl, 32);
  const watch = visibilityWatch(setup.pool);
  const headers = { 'content-type': 'application/json', authorization: setup.authorization };
  const sent = await pacedBatches({
    batchesPerSecond: 50,
    seconds,
    firstBatch: 0,
    batchOf: (tick) => ({ tick, fixes: Array.from({ length: 100 }, load.nextFix) }),
    send: ({ fixes }) => {
      const positions = fixes.map((fix) => ({
        deviceId: imeiOf(fix.vehicle),
        timestamp: new Date(fix.t * 1000).toISOString(),
        lat: fix.lat,
        lon: fix.lon,
        speedKmh: 42,
      }));
      return pacedClient.send('POST', '/ingest/v1/positions', JSON.stringify({ positions }), headers);
    },
    onAccepted: ({ tick, fixes }) =>
      watch.outstanding.set(tick, {
        acceptedAt: performance.now(),
        vehicles: fixes.map((f) => f.vehicle),
        t: fixes.map((f) => f.t),
      }),
  });
  const delays = await watch.finish();
  const usage = cpuOfPhase();
  pacedClient.close();
  return {
    figures: {
      offeredPerSecond: 5_000,
      achievedPerSecond: Math.round(((sent.batches - sent.failed) * 100) / sent.sentSeconds),
      batchesMeasured: delays.length,
      failedBatches: sent.failed,
      delayMs: {
        p50: round(percentile(delays, 50)),
        p99: round(percentile(delays, 99)),
        max: round(delays[delays.length - 1] ?? 0),
      },
      // Includes this bench polling last positions every 10 ms (its own PostgreSQL backend).
      cpuPercentOfOneCore: usage,
    },
    p99: percentile(delays, 99),
  };
}
