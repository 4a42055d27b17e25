/** Phase 2 of bench/commands: the door-lock route's throughput against a bare server's. */
import { join } from 'node:path';
import { CpuMeter } from '../common/cpu-meter';
import { LoadRecorder, LoadResult, RawHttpClient } from '../common/http-load';
import { freePort, log, round, spawnBareServer, until } from '../common/infra';
import { benchToken } from '../common/tenant';
import { Services } from './harness';
import {
  CONCURRENCY,
  DRAIN_TIMEOUT_MS,
  FIRST_THROUGHPUT_VEHICLE,
  READY_TIMEOUT_MS,
  ROUNDS,
  TARGET,
  THROUGHPUT_COMPANY,
  THROUGHPUT_SECONDS,
  THROUGHPUT_VEHICLES,
  THROUGHPUT_WARMUP_SECONDS,
} from './options';

/**
 * Phase 2: the door-lock route of command-gateway against a bare server with the same SQL, closed
 * loop, warm-up, then alternating slices (as bench/query).
 */
export async function throughputPhase(services: Services) {
  log(`phase 2: ${THROUGHPUT_VEHICLES} vehicles seeded into command-gateway's projection`);
  const last = FIRST_THROUGHPUT_VEHICLE + THROUGHPUT_VEHICLES - 1;
  await services.queries.seedVehicles(FIRST_THROUGHPUT_VEHICLE, last, THROUGHPUT_COMPANY);
  const barePort = await freePort();
  const bare = spawnBareServer(join(__dirname, 'bare-server.ts'), services.databaseUrl, barePort);
  try {
    const token = benchToken(services.jwtSecret, THROUGHPUT_COMPANY, ['commands:send']);
    const randomVehicle = () => FIRST_THROUGHPUT_VEHICLE + Math.floor(Math.random() * THROUGHPUT_VEHICLES);
    const isLock = () => String(Math.random() < 0.5);
    const serviceLoad = new RawHttpClient(services.gateway.baseUrl);
    const bareLoad = new RawHttpClient(`http://127.0.0.1:${barePort}`);
    const responseBytes: Record<string, number> = {};
    const scenarios: Record<string, () => Promise<number>> = {
      service: async () => {
        const answer = await serviceLoad.send(
          'PUT',
          `/v2/api/vehicles/${randomVehicle()}/door-lock?isLock=${isLock()}`,
          { authorization: `Bearer ${token}` },
        );
        responseBytes.service = answer.bodyBytes;
        return answer.status;
      },
      bare: async () => {
        const answer = await bareLoad.send(
          'PUT',
          `/door-lock?vehicle=${randomVehicle()}&company=${THROUGHPUT_COMPANY}&isLock=${isLock()}`,
        );
        responseBytes.bare = answer.bodyBytes;
        return answer.status;
      },
    };
    // Both answer a command before measuring (the company projection has arrived, the bare server listens).
    for (const name of ['service', 'bare']) {
      await until(
        `a 200 from the ${name} side`,
        async () => ((await scenarios[name]().catch(() => 0)) === 200 ? true : undefined),
        READY_TIMEOUT_MS,
      );
    }
    const cpu = new CpuMeter({
      'command-gateway': { pids: () => [services.gateway.pid] },
      bare: { pids: () => (bare.pid ? [bare.pid] : []) },
      postgres: { command: 'postgres' },
      redis: { command: 'redis-server' },
      kafka: { pids: services.kafkaPids },
      bench: { pids: () => [process.pid] },
    });
    const pair = ['service', 'bare'];
    for (const name of pair) {
      log(`${name}: ${THROUGHPUT_WARMUP_SECONDS} s of warm-up at concurrency ${CONCURRENCY}`);
      await new LoadRecorder().run(CONCURRENCY, THROUGHPUT_WARMUP_SECONDS * 1000, scenarios[name]);
    }
    log(
      `door lock: ${THROUGHPUT_SECONDS} s a side at concurrency ${CONCURRENCY}, in ${ROUNDS} alternating rounds`,
    );
    const recorders = new Map(pair.map((name) => [name, new LoadRecorder()]));
    const cpuSeconds = new Map(pair.map((name) => [name, {} as Record<string, number>]));
    for (let round = 0; round < ROUNDS; round++) {
      // Each side first in every other round, so that a change in the machine's speed falls on both alike.
      for (const name of round % 2 === 0 ? pair : [...pair].reverse()) {
        const started = performance.now();
        const cpuOfSlice = cpu.start();
        await recorders.get(name)!.run(CONCURRENCY, (THROUGHPUT_SECONDS * 1000) / ROUNDS, scenarios[name]);
        const seconds = (performance.now() - started) / 1000;
        const sum = cpuSeconds.get(name)!;
        for (const [group, percent] of Object.entries(cpuOfSlice())) {
          sum[group] = (sum[group] ?? 0) + percent * seconds;
        }
      }
    }
    serviceLoad.close();
    bareLoad.close();
    const results: Record<string, LoadResult> = {};
    const cpuOf: Record<string, Record<string, number>> = {};
    for (const name of pair) {
      results[name] = recorders.get(name)!.result();
      cpuOf[name] = Object.fromEntries(
        Object.entries(cpuSeconds.get(name)!).map(([group, weighted]) => [
          group,
          Math.round(weighted / results[name].seconds),
        ]),
      );
    }
    // Every command of both sides announced: the relay has emptied the outbox.
    const outboxLeft = await until(
      'the outbox relay to catch up',
      async () => {
        const n = await services.queries.outboxRows();
        return n === 0 ? n : undefined;
      },
      DRAIN_TIMEOUT_MS,
    ).catch(() => -1);
    const { service, bare: baseline } = results;
    const ratio = round(service.perSecond / baseline.perSecond, 2);
    return {
      route: 'PUT /v2/api/vehicles/{id}/door-lock?isLock=true|false, 1,000 vehicles, random',
      bareRoute: 'bench/commands/bare-server.ts: the same SQL as CommandsService.send',
      service: {
        perSecond: service.perSecond,
        latencyMs: service.latencyMs,
        failed: service.failed,
        statuses: service.statuses,
        responseBytes: responseBytes.service,
        cpuPercentOfOneCore: cpuOf.service,
      },
      bare: {
        perSecond: baseline.perSecond,
        latencyMs: baseline.latencyMs,
        failed: baseline.failed,
        statuses: baseline.statuses,
        responseBytes: responseBytes.bare,
        cpuPercentOfOneCore: cpuOf.bare,
      },
      outboxEmptyAfterRun: outboxLeft === 0,
      throughputRatio: ratio,
      meetsTargets:
        ratio >= TARGET.throughputRatio && service.latencyMs.p99 <= TARGET.p99Ms && service.failed === 0,
    };
  } finally {
    bare.kill('SIGTERM');
  }
}
