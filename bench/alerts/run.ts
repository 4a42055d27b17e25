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
import { Topics } from '@fleet/contracts';
import { BenchRun, openBenchRun } from '../common/bench-run';
import { kafkaClientFlag, log, machineFacts, ServiceProcess, sleep } from '../common/infra';
import { countRows } from '../common/tables.queries';
import { benchCompany, benchVehicle, publishVehicles } from '../common/tenant';
import { recordsByType } from './alerts.queries';
import { companyOf, COMPANIES, HOLDING, imeiOf, tagsOf, VEHICLES } from './fleet-model';
import { BACKLOG, defineRules, RATE, SECONDS, TARGET, WARMUP_SECONDS } from './harness';
import { latencyPhase } from './latency-phase';
import { AlertsRun, throughputPhase } from './throughput-phase';

/** The bench plays auth and the registry (companies, vehicles) and the management routes (rules). */
async function defineFleet(bench: BenchRun) {
  await bench.publisher.publish(
    Topics.companySnapshots,
    [HOLDING, ...COMPANIES].map((companyId) => ({
      key: String(companyId),
      payload: { ...benchCompany(companyId), parentId: companyId === HOLDING ? null : HOLDING },
    })),
  );
  await publishVehicles(
    bench.publisher,
    Array.from({ length: VEHICLES }, (_, index) =>
      benchVehicle(index + 1, imeiOf(index + 1), [companyOf(index + 1)], { tags: tagsOf(index + 1) }),
    ),
  );
  const rules = await defineRules(bench.databaseUrl);
  while ((await countRows(bench.pool, 'alerts.vehicles')) < VEHICLES) await sleep(200);
  log(`${VEHICLES} vehicles, ${rules.geofences} geofences, ${rules.configurations} configurations`);
  return rules;
}

async function main(): Promise<void> {
  const bench = await openBenchRun({ rateLimitStore: 'memory', env: { KAFKA_CLIENT: kafkaClientFlag() } });
  const run: AlertsRun = { bench, admin: bench.kafkaClient.admin(), all: [] };
  try {
    await run.admin.connect();
    const warmEngine = await ServiceProcess.start('alert-engine', bench.env);
    run.all.push(warmEngine);
    const rules = await defineFleet(bench);
    const throughput = await throughputPhase(run, warmEngine);
    const latency = await latencyPhase(run, throughput.engine, throughput.end);

    const records = await recordsByType(bench.pool);
    const result = {
      bench: 'alerts',
      machine: machineFacts(bench.calibration),
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
      throughput: throughput.figures,
      latency: latency.figures,
      recordsByType: Object.fromEntries(records.map((row) => [row.type, Number(row.n)])),
      peakRssMb: Object.fromEntries(run.all.map((service) => [service.app, service.peakRssMb()])),
      targets: TARGET,
      meetsTargets: { throughput: throughput.meetsTarget, p99Delay: latency.meetsTarget },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await run.admin.disconnect().catch(() => undefined);
    await Promise.all(run.all.map((service) => service.stop()));
    await bench.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
