/**
 * bench/webhooks: webhook-dispatcher in the distributed mode (its own process with the services' node
 * options, real Kafka, real PostgreSQL), delivering to real HTTP receivers on 127.0.0.1 in the bench's
 * process (`WebhookReceiver` of libs/testing, allowed by WEBHOOK_ALLOW_PRIVATE_CIDRS).
 *
 *   1. latency: telemetry-ingest, query-api and alert-engine join; 1,000 vehicles of one company,
 *      one overspeed configuration (created through alert-engine's route, so its snapshot reaches the
 *      dispatcher through the outbox) linked to one webhook. Batches of 100 positions go to the batch
 *      endpoint at a steady `--rate` positions/s (default 2,000) for `--seconds` (default 30), after
 *      `--warmup` seconds (default 10) unmeasured; in each batch one vehicle goes above the maximum.
 *      Measured: from the batch's 200 (the position accepted) to its alert's delivery received, and
 *      from the alert record's `created_at` (the engine's transaction start) to the same receipt;
 *   2. throughput: `--deliveries` (default 20,000) deliveries planned at once, as `--deliveries /
 *      --fanout` fired alerts published on `alerts.fired.v1` for `--fanout` (default 10) webhooks
 *      linked to one configuration, all at one fast receiver (or spread over `--throughput-receivers`,
 *      each its own endpoint); deliveries/s from the first publish to the last delivery received;
 *   3. mix: `--mix-receivers` (default 20) receivers, each with a webhook linked to one configuration,
 *      so that each fired alert is a delivery to each; fired alerts published at a steady `--mix-rate`
 *      per second (default 25) for `--mix-seconds` (default 20), once with every receiver fast and once
 *      with 10% of them never answering (each attempt times out after 5 s). Measured: publish to
 *      receipt at the healthy receivers, p50/p99, in both runs.
 *
 * The bench plays auth (company snapshots, tokens) and the vehicle registry (vehicle snapshots); in 2
 * and 3 it also plays alert-engine (configuration snapshots and fired alerts on their topics). Webhooks
 * are made through webhook-dispatcher's route, which gives their secrets; signatures are checked with
 * @octokit/webhooks-methods.
 *
 * Usage: npm run bench:webhooks [-- --rate 2000 --seconds 30 --warmup 10 --deliveries 20000 --fanout 10
 * --throughput-receivers 1 --mix-receivers 20 --mix-rate 25 --mix-seconds 20 --phases latency,throughput,mix].
 * Prints one JSON document on stdout. KAFKA_BROKERS picks a running broker; otherwise scripts/kafka.sh
 * starts one. The dispatcher's settings come from the environment (e.g. WEBHOOK_MAX_PER_ENDPOINT).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Topics } from '@fleet/contracts';
import { openBenchRun } from '../common/bench-run';
import { log, machineFacts, ServiceProcess } from '../common/infra';
import { benchCompany } from '../common/tenant';
import { Services } from './harness';
import { latencyPhase } from './latency-phase';
import { mixPhase } from './mix-phase';
import {
  DELIVERIES,
  FANOUT,
  LATENCY_COMPANY,
  MIX_COMPANY,
  MIX_RATE,
  MIX_RECEIVERS,
  MIX_SECONDS,
  PHASES,
  RATE,
  SECONDS,
  TARGET,
  THROUGHPUT_COMPANY,
  THROUGHPUT_RECEIVERS,
  VEHICLES,
  WARMUP_SECONDS,
} from './options';
import { throughputPhase } from './throughput-phase';
import { WebhookBenchQueries } from './webhooks.queries';

/** A phase's figures without its verdict, which goes to `meetsTargets`. */
function withoutVerdict<T extends { meetsTarget: boolean }>({ meetsTarget: _, ...figures }: T) {
  return figures;
}

async function main(): Promise<void> {
  const bench = await openBenchRun({ rateLimitStore: 'memory' });
  const all: ServiceProcess[] = [];
  try {
    const dispatcher = await ServiceProcess.start('webhook-dispatcher', {
      ...bench.env,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
      // The bench creates its webhooks in a burst.
      RATE_LIMIT_DEFAULT: 'second=100000',
    });
    all.push(dispatcher);
    const services: Services = {
      env: bench.env,
      jwtSecret: bench.jwtSecret,
      queries: new WebhookBenchQueries(bench.pool),
      registry: bench.publisher,
      dispatcher,
      kafkaPids: bench.kafka.pids,
      kafka: bench.kafkaClient,
      namespace: bench.namespace,
      all,
    };
    await services.registry.publish(
      Topics.companySnapshots,
      [LATENCY_COMPANY, THROUGHPUT_COMPANY, MIX_COMPANY].map((companyId) => ({
        key: String(companyId),
        payload: benchCompany(companyId),
      })),
    );

    const latency = PHASES.has('latency') ? await latencyPhase(services) : undefined;
    if (latency)
      log(
        `accepted to delivered: p50 ${latency.acceptedToReceivedMs.p50} ms, p99 ${latency.acceptedToReceivedMs.p99} ms`,
      );
    const throughput = PHASES.has('throughput') ? await throughputPhase(services) : undefined;
    if (throughput) log(`${throughput.deliveriesPerSecond} deliveries/s`);
    const mix = PHASES.has('mix') ? await mixPhase(services) : undefined;

    const result = {
      bench: 'webhooks',
      machine: machineFacts(bench.calibration),
      config: {
        mode: 'distributed',
        transport: 'kafka',
        vehicles: VEHICLES,
        pacedRate: RATE,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        deliveries: DELIVERIES,
        fanout: FANOUT,
        throughputReceivers: THROUGHPUT_RECEIVERS,
        mixReceivers: MIX_RECEIVERS,
        mixAlertsPerSecond: MIX_RATE,
        mixSeconds: MIX_SECONDS,
        dispatcherSettings: 'defaults: WEBHOOK_MAX_CONCURRENCY 256, WEBHOOK_MAX_PER_ENDPOINT 32',
      },
      latency: latency && withoutVerdict(latency),
      throughput: throughput && withoutVerdict(throughput),
      mix: mix && withoutVerdict(mix),
      peakRssMb: { ...latency?.peakRssMb, 'webhook-dispatcher': dispatcher.peakRssMb() },
      targets: { ...TARGET, mix: 'the healthy receivers keep their p99 with 10% of receivers timing out' },
      meetsTargets: {
        p99AlertToDelivery: latency?.meetsTarget,
        throughput: throughput?.meetsTarget,
        mix: mix?.meetsTarget,
      },
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
