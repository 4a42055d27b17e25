/**
 * `npm run bench:capacity` (issue 33): the distributed stack as `npm run stack` runs it (six services,
 * Kafka, the machine's PostgreSQL and Redis, nginx or the dev proxy), with `--companies` (100) ×
 * `--vehicles-per-company` (1,000) registered vehicles, 10 geofences per company watched by entry and
 * exit configurations, an overspeed configuration per company, and `--webhooks` (10) global webhooks
 * to a local receiver; then rising steps of offered positions/s (`--steps`, 2000,5000,10000,15000),
 * each `--step-seconds` (60) of load and `--recovery-seconds` (30) without. The load is `--teltonika-share`
 * (0.6) Teltonika Codec 8E over TCP from `--devices` (2,000) connections (bench/trackers' generator,
 * packets of 10 records), 5 % single OsmAnd reports and the rest through the batch endpoint at the edge.
 *
 * For every step: accepted/s; each consumer group's lag at the end of the step and after the recovery;
 * p99 of accepted → last position visible, accepted → alert record, alert → webhook received and
 * accepted → stream event (`--stream-clients`, 200, SSE clients at the edge, each following a whole
 * company: stream-clients.ts); CPU (% of one core) and RSS per process; rows PostgreSQL wrote a second;
 * bytes Kafka appended a second. `sustainedPositionsPerSecond` is the highest step that accepted ≥ 95 %
 * of what was offered, whose lags were under one second of data after the recovery, and whose p99s
 * held the targets.
 *
 * Usage: npm run bench:capacity [-- --steps 2000,5000 --companies 10 --vehicles-per-company 100 ...
 *   --plot docs/images/capacity.png --keep-going]. Prints one JSON document on stdout, progress on
 * stderr; stops everything it started, also on failure. Sends traffic to 127.0.0.1 only.
 */
import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { StackProcess, StackState, WebhookReceiver } from '@fleet/testing';
import { CpuMeter, ProcessGroup } from '../common/cpu-meter';
import { calibrate, createBenchDatabase, log, machineFacts, p99, rssMb, sleep } from '../common/infra';
import { Generators } from '../trackers/generators';
import { cleanUp } from '../trackers/lifecycle';
import { capacityPlot } from './plot';
import { CapacityStep } from './step';
import { BenchVehicle, provisionFleet } from './fleet';
import { consumerLags, kafkaAdmin, kafkaLogBytes } from './gauges';
import { rowsWritten, tableSizes, vacuumAnalyzeAll, vehiclesReported } from './gauges.queries';
import { batchLoad, FixSource, osmandLoad, Probes, StepLatencies } from './probes';
import { StreamClients } from './stream-clients';

const TARGETS = {
  visibleP99Ms: 1_000,
  alertRecordP99Ms: 500,
  webhookP99Ms: 500,
  streamP99Ms: 500,
  acceptedShare: 0.95,
};
const OSMAND_SHARE = 0.05;
const RECORDS_PER_PACKET = 10;

const { values: flags } = parseArgs({
  options: {
    steps: { type: 'string', default: '2000,5000,10000,15000' },
    'step-seconds': { type: 'string', default: '60' },
    'recovery-seconds': { type: 'string', default: '30' },
    companies: { type: 'string', default: '100' },
    'vehicles-per-company': { type: 'string', default: '1000' },
    'geofences-per-company': { type: 'string', default: '10' },
    webhooks: { type: 'string', default: '10' },
    'stream-clients': { type: 'string', default: '200' },
    devices: { type: 'string', default: '2000' },
    'teltonika-share': { type: 'string', default: '0.6' },
    'port-offset': { type: 'string', default: '19200' },
    plot: { type: 'string', default: 'docs/images/capacity.png' },
    'keep-going': { type: 'boolean', default: false },
  },
});
const STEPS = flags.steps!.split(',').map(Number);
const STEP_SECONDS = Number(flags['step-seconds']);
const RECOVERY_SECONDS = Number(flags['recovery-seconds']);
const DEVICES = Number(flags.devices);
const TELTONIKA_SHARE = Number(flags['teltonika-share']);

/** Each service process's resident memory now. */
const servicesRss = (stack: StackProcess) =>
  Object.fromEntries(stack.state().processes.map((process) => [process.name, rssMb(process.pid)]));

const prefixed = (prefix: string, counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).map(([key, value]) => [`${prefix}${key}`, value]));

/** Whether a step holds: what it accepted, how far behind the consumers stayed, its p99s. */
function judge(step: Omit<CapacityStep, 'sustained' | 'why'>): string[] {
  const why: string[] = [];
  if (step.acceptedPerSecond < step.offeredPerSecond * TARGETS.acceptedShare)
    why.push(`accepted ${step.acceptedPerSecond}/s of ${step.offeredPerSecond}/s offered`);
  for (const [group, lag] of Object.entries(step.lagAfterRecovery))
    if (lag > step.offeredPerSecond) why.push(`${group} still ${lag} messages behind after the recovery`);
  const over = (value: number | null, target: number) => value !== null && value > target;
  if (step.p99Ms.visible === null) why.push('no position was seen visible');
  if (over(step.p99Ms.visible, TARGETS.visibleP99Ms)) why.push(`visible p99 ${step.p99Ms.visible} ms`);
  if (over(step.p99Ms.alertRecord, TARGETS.alertRecordP99Ms))
    why.push(`alert record p99 ${step.p99Ms.alertRecord} ms`);
  if (over(step.p99Ms.webhook, TARGETS.webhookP99Ms)) why.push(`webhook p99 ${step.p99Ms.webhook} ms`);
  if (step.stream.clients > 0 && step.p99Ms.stream === null) why.push('no stream client saw a probe fix');
  if (over(step.p99Ms.stream, TARGETS.streamP99Ms)) why.push(`stream event p99 ${step.p99Ms.stream} ms`);
  if (step.stream.open < step.stream.clients)
    why.push(`${step.stream.clients - step.stream.open} stream clients ended by the server`);
  if (step.stream.violations > 0) why.push(`${step.stream.violations} stream events of another company`);
  return why;
}

async function main(): Promise<void> {
  const calibration = calibrate();
  const database = await createBenchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-capacity-'));
  const receiver = await WebhookReceiver.start();
  let stack: StackProcess | undefined;
  let generators: Generators | undefined;
  let streams: StreamClients | undefined;
  const pool = new Pool({ connectionString: database.url, max: 2 });
  try {
    log(`starting the stack (${database.url})`);
    stack = await StackProcess.start(
      ['--no-demo', '--port-offset', flags['port-offset']!],
      {
        DATABASE_URL: database.url,
        WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
        LOG_LEVEL: 'warn',
        // One integrator's token sends every batch; every device comes from 127.0.0.1.
        RATE_LIMIT_DEFAULT: 'minute=100000000',
        INGEST_MAX_CONNECTIONS_PER_ADDRESS: String(DEVICES + 1_000),
        INGEST_DEVICE_HOST: '127.0.0.1',
      },
      dataDir,
    );
    const rssAtStart = servicesRss(stack);
    const state: StackState = stack.state();
    const edge = state.entry!.url;
    const probes = new Probes(pool);
    receiver.answer((request) => {
      probes.webhookReceived(request.body, Date.now());
      receiver.requests.length = 0;
      return { status: 200 };
    });
    const fleet = await provisionFleet(
      edge,
      database.url,
      {
        companies: Number(flags.companies),
        vehiclesPerCompany: Number(flags['vehicles-per-company']),
        geofencesPerCompany: Number(flags['geofences-per-company']),
        webhooks: Number(flags.webhooks),
      },
      (path) => receiver.url(path),
    );
    const streamClients = new StreamClients(
      Number(flags['stream-clients']),
      fleet.companies,
      fleet.vehicles,
      edge,
      (vehicleId, fixSecond, at) => probes.streamReceived(vehicleId, fixSecond, at),
    );
    probes.awaitOnStream(streamClients.clientsOf);
    // The provisioning's rows vacuumed and analysed now, not by autovacuum during the first step.
    log('VACUUM ANALYZE after provisioning');
    await vacuumAnalyzeAll(pool);

    // Trackers: every n-th vehicle, so that they spread over the companies; the others report by HTTP.
    const every = Math.max(1, Math.floor(fleet.vehicles.length / DEVICES));
    const trackers = fleet.vehicles.filter((_, index) => index % every === 0).slice(0, DEVICES);
    const others = fleet.vehicles.filter((_, index) => index % every !== 0 || index / every >= DEVICES);
    const osmandVehicles = others.filter((_, index) => index % 10 === 0);
    const batchVehicles = others.filter((_, index) => index % 10 !== 0);
    const teltonikaPort = Number(new URL(state.trackers).port) - 5055 + 5027;
    // The trackers' fixes start two hours back (recent, as a real tracker's), not bench:trackers' day.
    process.env.TRACK_START_AGO_SECONDS = String(2 * 3600);
    generators = await Generators.start(1, DEVICES + 100, () => undefined);
    const connected = await generators.connect(
      trackers.map((vehicle: BenchVehicle, index) => ({
        imei: vehicle.imei,
        index: index + 1,
        port: teltonikaPort,
      })),
      200,
      true,
    );
    log(`${connected.connected} of ${trackers.length} Teltonika devices connected`);
    streams = streamClients;
    await streams.connect();

    const admin = kafkaAdmin(state.kafkaBrokers);
    await admin.connect();
    const groups: Record<string, ProcessGroup> = {
      ...Object.fromEntries(
        stack.state().processes.map((process) => [process.name, { pids: () => [process.pid ?? 0] }]),
      ),
      kafka: { command: 'java' },
      postgres: { command: 'postgres' },
      redis: { command: 'redis-server' },
      nginx: { command: 'nginx' },
      generator: { pids: () => generators?.pids() ?? [] },
      bench: { pids: () => [process.pid] },
    };
    const cpu = new CpuMeter(groups);
    const batchSources = fleet.companies.map((company) => ({
      authorization: company.writeAuthorization,
      source: new FixSource(batchVehicles.filter((vehicle) => vehicle.company === company)),
    }));
    const osmandSource = new FixSource(osmandVehicles);
    probes.start();

    const steps: CapacityStep[] = [];
    for (const offered of STEPS) {
      log(`step: ${offered} positions/s for ${STEP_SECONDS} s`);
      probes.take();
      streams.take();
      const rowsBefore = await rowsWritten(pool);
      const bytesBefore = kafkaLogBytes(join(dataDir, 'kafka', 'storage'));
      const cpuOfStep = cpu.start();
      const started = performance.now();
      const teltonikaRate = offered * TELTONIKA_SHARE;
      const osmandRate = offered * OSMAND_SHARE;
      const [teltonika, batch, osmand] = await Promise.all([
        generators.openLoop(
          trackers.map((vehicle) => vehicle.imei),
          teltonikaRate,
          STEP_SECONDS,
          RECORDS_PER_PACKET,
        ),
        batchLoad(edge, batchSources, probes, offered - teltonikaRate - osmandRate, STEP_SECONDS),
        osmandLoad(state.trackers, osmandSource, probes, osmandRate, STEP_SECONDS),
      ]);
      const seconds = (performance.now() - started) / 1000;
      const cpuFigures = cpuOfStep();
      const rowsAfter = await rowsWritten(pool);
      const bytesAfter = kafkaLogBytes(join(dataDir, 'kafka', 'storage'));
      const lagAtEnd = await consumerLags(admin);
      await sleep(RECOVERY_SECONDS * 1000);
      const lagAfterRecovery = await consumerLags(admin);
      const latencies: StepLatencies = probes.take();
      const stream = streams.take();
      const acceptedTotal = teltonika.recordsAcknowledged + batch.accepted + osmand.accepted;
      const figures = {
        offeredPerSecond: offered,
        acceptedPerSecond: Math.round(acceptedTotal / seconds),
        accepted: {
          teltonika: teltonika.recordsAcknowledged,
          batch: batch.accepted,
          osmand: osmand.accepted,
          failed: batch.failed + osmand.failed + (teltonika.recordsSent - teltonika.recordsAcknowledged),
        },
        refusals: { ...batch.statuses, ...prefixed('osmand ', osmand.statuses) },
        lagAtEnd,
        lagAfterRecovery,
        p99Ms: {
          visible: p99(latencies.visible),
          alertRecord: p99(latencies.alertRecord),
          webhook: p99(latencies.webhook),
          stream: p99(latencies.stream),
          teltonikaAck: p99(teltonika.ackLatencies),
        },
        samples: {
          visible: latencies.visible.length,
          alertRecord: latencies.alertRecord.length,
          webhook: latencies.webhook.length,
          stream: latencies.stream.length,
        },
        stream,
        cpuPercentOfOneCore: cpuFigures,
        rssMb: servicesRss(stack),
        positionsPerCoreSecond: Object.fromEntries(
          Object.entries(cpuFigures)
            .filter(([, percent]) => percent > 0)
            .map(([name, percent]) => [name, Math.round((acceptedTotal / seconds) * (100 / percent))]),
        ),
        postgresRowsPerSecond: Math.round((rowsAfter - rowsBefore) / seconds),
        kafkaBytesPerSecond: Math.round((bytesAfter - bytesBefore) / seconds),
      };
      const why = judge(figures);
      const step: CapacityStep = { ...figures, sustained: why.length === 0, why };
      steps.push(step);
      log(JSON.stringify(step));
      if (!step.sustained && !flags['keep-going']) break;
    }
    await probes.stop();
    await admin.disconnect();
    const sizing = await sizingOf(pool, stack, rssAtStart, join(dataDir, 'kafka', 'storage'));
    log(JSON.stringify(sizing));

    const sustained = steps.filter((step) => step.sustained).map((step) => step.offeredPerSecond);
    const plotFile = resolve(__dirname, '../..', flags.plot!);
    mkdirSync(dirname(plotFile), { recursive: true });
    writeFileSync(plotFile, await capacityPlot(steps));
    log(`plot: ${plotFile}`);
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'capacity',
          sustainedPositionsPerSecond: sustained.length ? Math.max(...sustained) : 0,
          targets: TARGETS,
          config: {
            ...flags,
            vehicles: fleet.vehicles.length,
            teltonikaDevices: connected.connected,
            osmandShare: OSMAND_SHARE,
            recordsPerPacket: RECORDS_PER_PACKET,
          },
          machine: machineFacts(calibration),
          steps,
          sizing,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    streams?.close();
    await generators?.disconnect().catch(() => undefined);
    // The generator processes (registered by Generators.start).
    await cleanUp();
    if (stack) await stack.interrupt().catch(() => stack?.kill());
    await receiver.close();
    await pool.end();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What the run left behind, per unit (docs/operations.md, "Sizing"): resident memory each service
 * grew by per vehicle that reported (state of every vehicle, plus what the load left in the heap, so
 * an upper bound), bytes per stored position in PostgreSQL (table and indexes) and in Kafka's log.
 */
async function sizingOf(
  pool: Pool,
  stack: StackProcess,
  rssAtStart: Record<string, number | null>,
  kafkaStorage: string,
) {
  const reported = await vehiclesReported(pool);
  const rssAtEnd = servicesRss(stack);
  const tables = await tableSizes(pool);
  const positions = tables.find((table) => table.table === 'query.positions');
  const kbPerVehicle = Object.fromEntries(
    Object.entries(rssAtEnd).map(([name, end]) => {
      const start = rssAtStart[name];
      return [
        name,
        end === null || start == null ? null : Math.round(((end - start) * 1024 * 10) / reported) / 10,
      ];
    }),
  );
  return {
    vehiclesReported: reported,
    rssMbAtStart: rssAtStart,
    rssMbAtEnd: rssAtEnd,
    rssKbPerReportedVehicle: kbPerVehicle,
    positionsStored: positions?.rows ?? 0,
    postgresBytesPerPosition:
      positions && positions.rows ? Math.round(positions.bytes / positions.rows) : null,
    // Every stored position went through the topic once (replication factor 1 here).
    kafkaBytesPerPosition:
      positions && positions.rows
        ? Math.round(kafkaLogBytes(kafkaStorage, 'telemetry.positions.v1') / positions.rows)
        : null,
    tables,
  };
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
