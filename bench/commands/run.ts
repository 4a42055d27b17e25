/**
 * bench/commands: vehicle commands (issue 19) in the distributed mode, real Kafka and PostgreSQL.
 *
 *   1. latency: telemetry-ingest, query-api and command-gateway each their own process. `--devices`
 *      (default 200) simulated trackers, each on its own keep-alive connection to the tracker port,
 *      report every `--report-interval-ms` (default 1,000; phases spread evenly) as OsmAnd query
 *      strings, with their door and engine state. Commands (door lock, ignition, locate, mixed) go at a
 *      steady `--rate` per second (default 20) for `--seconds` (default 30) after `--warmup` seconds
 *      (default 5) unmeasured, each to a random device that has no command in flight (so that no
 *      command supersedes another and every accepted one must reach its device). Measured per
 *      command: from the route's 200 to the answer of the device's report that carries it (handed);
 *      the device acknowledges in its next regular report (`cmdid`, `cmdstatus=ok`), and the time to
 *      `acknowledged` is read back from command-gateway's table (`finished_at`: the device's report).
 *   2. throughput: command-gateway alone (with Kafka, and its outbox relay publishing), closed loop at
 *      `--concurrency` (default 16) on `PUT /v2/api/vehicles/{id}/door-lock` over 1,000 vehicles, against
 *      a bare node:http + pg server doing the same SQL (bare-server.ts), after `--throughput-warmup`
 *      seconds (default 10) of each, measured for `--throughput-seconds` (default 10) a side in
 *      `--rounds` (default 4) alternating slices, as bench/query does.
 *
 * The bench plays auth (company snapshots, tokens); vehicles of phase 1 are registered through
 * query-api's registry (the admin CLI's way), whose snapshots reach ingest and command-gateway.
 *
 * Usage: npm run bench:commands [-- --devices 200 --report-interval-ms 1000 --rate 20 --seconds 30
 * --warmup 5 --concurrency 16 --throughput-seconds 10 --throughput-warmup 10 --rounds 4
 * --phases latency,throughput]. Prints one JSON document on stdout. KAFKA_BROKERS picks a running
 * broker; otherwise scripts/kafka.sh starts one.
 */
// First: the contracts' class-transformer decorators read design types when they are loaded.
import 'reflect-metadata';
import { Topics } from '@fleet/contracts';
import { openBenchRun } from '../common/bench-run';
import { log, machineFacts, ServiceProcess } from '../common/infra';
import { benchCompany } from '../common/tenant';
import { CommandBenchQueries } from './commands.queries';
import { Services } from './harness';
import { latencyPhase } from './latency-phase';
import {
  CONCURRENCY,
  DEVICES,
  LATENCY_COMPANY,
  PHASES,
  RATE,
  REPORT_INTERVAL_MS,
  ROUNDS,
  SECONDS,
  TARGET,
  THROUGHPUT_COMPANY,
  THROUGHPUT_SECONDS,
  THROUGHPUT_VEHICLES,
  THROUGHPUT_WARMUP_SECONDS,
  WARMUP_SECONDS,
} from './options';
import { throughputPhase } from './throughput-phase';

async function main(): Promise<void> {
  const bench = await openBenchRun({
    rateLimitStore: 'redis',
    env: { RATE_LIMIT_DEFAULT: 'second=1000000', GEOCODER_PROVIDER: 'none' },
  });
  const { env } = bench;
  const all: ServiceProcess[] = [];
  try {
    const gateway = await ServiceProcess.start('command-gateway', env);
    all.push(gateway);
    await bench.publisher.publish(
      Topics.companySnapshots,
      [LATENCY_COMPANY, THROUGHPUT_COMPANY].map((companyId) => ({
        key: String(companyId),
        payload: benchCompany(companyId),
      })),
    );
    const services: Services = {
      env,
      jwtSecret: bench.jwtSecret,
      databaseUrl: bench.databaseUrl,
      queries: new CommandBenchQueries(bench.pool),
      kafka: bench.kafkaClient,
      kafkaPids: bench.kafka.pids,
      namespace: bench.namespace,
      gateway,
      all,
    };
    const latency = PHASES.has('latency') ? await latencyPhase(services) : undefined;
    if (latency) {
      log(
        `accepted to handed: p50 ${latency.acceptedToHandedMs.p50} ms, p99 ${latency.acceptedToHandedMs.p99} ms; ` +
          `accepted ${latency.accepted}, handed ${latency.handed}, acknowledged ${latency.acknowledged}`,
      );
    }
    const throughput = PHASES.has('throughput') ? await throughputPhase(services) : undefined;
    if (throughput) {
      log(`door lock: ${throughput.service.perSecond} req/s against bare ${throughput.bare.perSecond} req/s`);
    }
    const result = {
      bench: 'commands',
      machine: machineFacts(bench.calibration),
      config: {
        mode: 'distributed',
        transport: 'kafka',
        devices: DEVICES,
        reportIntervalMs: REPORT_INTERVAL_MS,
        commandsPerSecond: RATE,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        commandTypes: 'doorLock, ignition, locate, one third each',
        concurrency: CONCURRENCY,
        throughputSeconds: THROUGHPUT_SECONDS,
        throughputWarmupSeconds: THROUGHPUT_WARMUP_SECONDS,
        alternatingRounds: ROUNDS,
        throughputVehicles: THROUGHPUT_VEHICLES,
        rateLimit: env.RATE_LIMIT_DEFAULT,
        rateLimitStore: 'redis',
      },
      latency,
      throughput,
      peakRssMb: { ...latency?.peakRssMb, 'command-gateway': gateway.peakRssMb() },
      targets: TARGET,
      meetsTargets: { latency: latency?.meetsTargets, throughput: throughput?.meetsTargets },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await Promise.all(all.map((service) => service.stop()));
    await bench.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
