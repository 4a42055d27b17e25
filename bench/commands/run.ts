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
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Topics } from '@fleet/contracts';
import { dataSourceOptions, namespaced, serviceNodeOptions } from '@fleet/platform';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { CpuMeter } from '../common/cpu-meter';
import { HttpClient, LoadRecorder, LoadResult, RawHttpClient } from '../common/http-load';
import {
  calibrate,
  createBenchDatabase,
  deleteNamespaceTopics,
  ensureKafka,
  freePort,
  log,
  machineFacts,
  numberFlag,
  setFlag,
  percentile,
  repoRoot,
  round,
  ServiceProcess,
  sleep,
} from '../common/infra';
import { benchCompany, benchToken } from '../common/tenant';

const DEVICES = numberFlag('devices', 200);
const REPORT_INTERVAL_MS = numberFlag('report-interval-ms', 1_000);
const RATE = numberFlag('rate', 20);
const SECONDS = numberFlag('seconds', 30);
const WARMUP_SECONDS = numberFlag('warmup', 5);
const CONCURRENCY = numberFlag('concurrency', 16);
const THROUGHPUT_SECONDS = numberFlag('throughput-seconds', 10);
const THROUGHPUT_WARMUP_SECONDS = numberFlag('throughput-warmup', 10);
/** Each side's measured seconds are split into this many slices, the two sides taking turns. */
const ROUNDS = numberFlag('rounds', 4);
const PHASES = setFlag('phases', ['latency', 'throughput']);
const TARGET = { handedP99Ms: 1_500, throughputRatio: 0.6, p99Ms: 50 };

const LATENCY_COMPANY = 1;
const THROUGHPUT_COMPANY = 2;
const THROUGHPUT_VEHICLES = 1_000;
/** Phase 2's vehicles, seeded into command-gateway's projection apart from the registry's ids. */
const FIRST_THROUGHPUT_VEHICLE = 1_000_001;
/** How long the bench waits for what is still on its way once the commands stopped. */
const DRAIN_TIMEOUT_MS = 30_000;
const READY_TIMEOUT_MS = 60_000;

type CommandType = 'doorLock' | 'ignition' | 'locate';
const COMMAND_TYPES: CommandType[] = ['doorLock', 'ignition', 'locate'];

const imeiOf = (index: number) => `35901${String(index).padStart(10, '0')}`;

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
};

/** Polls `probe` until it gives a value; fails after `timeoutMs` with `what`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** When each command reached its device, and when the device's acknowledgement was accepted (bench clock). */
interface DeviceLog {
  handedAt: Map<string, number>;
  /** Hand-outs of an id the device had already been handed. */
  reHanded: number;
  ackedAt: Map<string, number>;
  /** When the report that carried each command was sent. */
  handedByReportSentAt: Map<string, number>;
  reports: number;
  failedReports: Record<string, number>;
  /** How much later than its schedule each report was sent (the bench's own event loop, when busy). */
  lateMs: number[];
}

/**
 * A tracker as the simulator plays it (docs/osmand.md): reports on its own keep-alive connection,
 * carries out what it is handed, and acknowledges each command in its next regular report.
 */
class Device {
  private readonly client: HttpClient;
  private readonly toAcknowledge: string[] = [];
  private lastFixSeconds = 0;
  /** When each report was sent (bench clock), in order. */
  readonly sentAt: number[] = [];
  private locked = false;
  private engineOn = true;

  constructor(
    readonly vehicleId: number,
    private readonly imei: string,
    deviceUrl: string,
    private readonly position: { lat: number; lon: number },
    private readonly record: DeviceLog,
    /** Called once the device's report carrying its acknowledgement of a command was accepted. */
    private readonly onAcknowledged: (device: Device, commandId: string) => void,
  ) {
    this.client = new HttpClient(deviceUrl, 1);
  }

  async report(): Promise<void> {
    const started = performance.now();
    this.sentAt.push(started);
    // The fix time in whole seconds, never the same twice (the history keeps one fix per second).
    this.lastFixSeconds = Math.max(this.lastFixSeconds + 1, Math.floor(Date.now() / 1000));
    const fields: Record<string, string> = {
      id: this.imei,
      lat: String(this.position.lat),
      lon: String(this.position.lon),
      timestamp: String(this.lastFixSeconds),
      lock: String(this.locked),
      engine: String(this.engineOn),
    };
    const acknowledging = this.toAcknowledge.shift();
    if (acknowledging) Object.assign(fields, { cmdid: acknowledging, cmdstatus: 'ok' });
    let answer: { status: number; body: string };
    try {
      answer = await this.client.send('GET', `/?${new URLSearchParams(fields)}`);
    } catch (error) {
      answer = { status: 0, body: String(error) };
    }
    const at = performance.now();
    this.record.reports++;
    if (answer.status !== 200) {
      this.record.failedReports[answer.status] = (this.record.failedReports[answer.status] ?? 0) + 1;
      // Not taken: the acknowledgement goes again with the next report.
      if (acknowledging) this.toAcknowledge.unshift(acknowledging);
      return;
    }
    if (acknowledging) {
      if (!this.record.ackedAt.has(acknowledging)) this.record.ackedAt.set(acknowledging, at);
      this.onAcknowledged(this, acknowledging);
    }
    if (answer.body === '') return;
    const { commands } = JSON.parse(answer.body) as {
      commands: { id: string; type: CommandType; lock?: boolean; on?: boolean }[];
    };
    for (const command of commands) {
      if (this.record.handedAt.has(command.id)) this.record.reHanded++;
      else {
        this.record.handedAt.set(command.id, at);
        this.record.handedByReportSentAt.set(command.id, started);
      }
      if (command.type === 'doorLock') this.locked = command.lock === true;
      if (command.type === 'ignition') this.engineOn = command.on === true;
      // Handed again (the acknowledgement was not recorded): acknowledged again, de-duplicated by id.
      if (!this.toAcknowledge.includes(command.id)) this.toAcknowledge.push(command.id);
    }
  }

  close(): void {
    this.client.close();
  }
}

interface Services {
  env: Record<string, string>;
  jwtSecret: string;
  databaseUrl: string;
  pool: Pool;
  kafka: Kafka;
  kafkaPids: () => number[];
  namespace: string;
  gateway: ServiceProcess;
  all: ServiceProcess[];
}

/** A command as the bench sent it. */
interface SentCommand {
  id: string;
  type: CommandType;
  vehicleId: number;
  /** The command's createdAt as the route answered it (command-gateway's clock, epoch ms). */
  createdAt: number;
  /** When the route's 200 was read (bench clock). */
  acceptedAt: number;
  measured: boolean;
}

/** Phase 1: accepted → handed to a device that reports every REPORT_INTERVAL_MS → acknowledged. */
async function latencyPhase(services: Services) {
  log('phase 1: telemetry-ingest and query-api join');
  const [ingest, queryApi] = await Promise.all([
    ServiceProcess.start('telemetry-ingest', services.env),
    ServiceProcess.start('query-api', services.env),
  ]);
  services.all.push(ingest, queryApi);
  const count = async (sql: string) => Number((await services.pool.query(sql)).rows[0].n);

  log(`registering ${DEVICES} vehicles in query-api's registry`);
  const registryData = await new DataSource(
    dataSourceOptions(
      querySchema,
      { url: services.databaseUrl, migrateOnStart: false, poolSize: 2 },
      'bench',
    ),
  ).initialize();
  const vehicles: { id: number; imei: string }[] = [];
  try {
    const registry = createRegistryAdmin(registryData).vehicles;
    for (let index = 1; index <= DEVICES; index++) {
      const imei = imeiOf(index);
      const vehicle = await registry.register({
        name: `Bench ${index}`,
        imei,
        companyIds: [LATENCY_COMPANY],
      });
      vehicles.push({ id: vehicle.id, imei });
    }
  } finally {
    await registryData.destroy();
  }
  // query-api relays the registry's outbox; ingest and command-gateway project the snapshots.
  await until('telemetry-ingest and command-gateway to learn the vehicles', async () =>
    (await count('SELECT count(*) AS n FROM ingest.device_sessions')) === DEVICES &&
    (await count('SELECT count(*) AS n FROM commands.vehicles')) === DEVICES
      ? true
      : undefined,
  );

  // When each command reached Kafka (its record's timestamp, set by command-gateway's outbox relay).
  const onKafkaAt = new Map<string, number>();
  const requestedConsumer = services.kafka.consumer({ groupId: `${services.namespace}.bench-requested` });
  await requestedConsumer.connect();
  await requestedConsumer.subscribe({
    topic: namespaced(services, Topics.commandsRequested.name),
    fromBeginning: true,
  });
  await requestedConsumer.run({
    eachMessage: async ({ message }) => {
      const { commandId } = JSON.parse(message.value!.toString()) as { commandId: string };
      onKafkaAt.set(commandId, Number(message.timestamp));
    },
  });

  const deviceLog: DeviceLog = {
    handedAt: new Map(),
    reHanded: 0,
    ackedAt: new Map(),
    handedByReportSentAt: new Map(),
    reports: 0,
    failedReports: {},
    lateMs: [],
  };
  /** Vehicles with a command accepted and not yet acknowledged by their device. */
  const busy = new Set<number>();
  const devices = vehicles.map(
    (vehicle, index) =>
      new Device(
        vehicle.id,
        vehicle.imei,
        ingest.deviceUrl,
        { lat: round(48.1 + (index % 20) / 100, 5), lon: round(11.5 + Math.floor(index / 20) / 100, 5) },
        deviceLog,
        (device) => busy.delete(device.vehicleId),
      ),
  );
  let reporting = true;
  const reportsStarted = performance.now();
  const deviceLoops = devices.map(async (device, index) => {
    // Phases spread evenly over the interval, each device on a fixed schedule.
    let next = reportsStarted + (index * REPORT_INTERVAL_MS) / DEVICES;
    while (reporting) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      if (!reporting) break;
      deviceLog.lateMs.push(performance.now() - next);
      await device.report();
      next += REPORT_INTERVAL_MS;
    }
  });
  await sleep(2 * REPORT_INTERVAL_MS);
  if (deviceLog.reports < DEVICES || Object.keys(deviceLog.failedReports).length > 0) {
    throw new Error(
      `devices not accepted: ${deviceLog.reports} reports, failures ${JSON.stringify(deviceLog.failedReports)}`,
    );
  }

  const routes = new HttpClient(services.gateway.baseUrl, 16);
  const authorization = `Bearer ${benchToken(services.jwtSecret, LATENCY_COMPANY, ['commands:send'])}`;
  const sent = new Map<string, SentCommand>();
  const routeLatencies: number[] = [];
  const routeFailures: Record<string, string> = {};
  let routeFailed = 0;
  let noIdleDevice = 0;

  /** A random device without a command in flight. */
  const idleDevice = (): Device | undefined => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const device = devices[Math.floor(Math.random() * devices.length)];
      if (!busy.has(device.vehicleId)) return device;
    }
    return devices.find((device) => !busy.has(device.vehicleId));
  };

  const sendCommand = async (measured: boolean): Promise<void> => {
    const device = idleDevice();
    if (!device) return void noIdleDevice++;
    const type = COMMAND_TYPES[Math.floor(Math.random() * COMMAND_TYPES.length)];
    const flag = String(Math.random() < 0.5);
    // V2 has no locate route: the spec's V1 UpdateLocation is the one that asks for a position.
    const [method, path] =
      type === 'doorLock'
        ? ['PUT', `/v2/api/vehicles/${device.vehicleId}/door-lock?isLock=${flag}`]
        : type === 'ignition'
          ? ['POST', `/v2/api/vehicles/${device.vehicleId}/ignition?isOn=${flag}`]
          : ['POST', `/api/UpdateLocation?id=${device.vehicleId}`];
    busy.add(device.vehicleId);
    const started = performance.now();
    let answer: { status: number; body: string };
    try {
      answer = await routes.send(method, path, undefined, { authorization });
    } catch (error) {
      answer = { status: 0, body: String(error) };
    }
    const acceptedAt = performance.now();
    if (answer.status !== 200) {
      busy.delete(device.vehicleId);
      routeFailed++;
      routeFailures[answer.status] = answer.body.slice(0, 300);
      return;
    }
    const body = JSON.parse(answer.body) as {
      id?: string;
      CommandId?: string;
      createdAt?: string;
      CreatedAt?: string;
    };
    const id = (body.id ?? body.CommandId)!;
    sent.set(id, {
      id,
      type,
      vehicleId: device.vehicleId,
      createdAt: Date.parse((body.createdAt ?? body.CreatedAt)!),
      acceptedAt,
      measured,
    });
    if (measured) routeLatencies.push(acceptedAt - started);
  };

  /** Sends `seconds` of commands at RATE per second, each without waiting for the one before. */
  const paced = async (seconds: number, measured: boolean) => {
    const requests: Promise<void>[] = [];
    const started = performance.now();
    for (let tick = 0; tick < seconds * RATE; tick++) {
      const wait = started + (tick * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      requests.push(sendCommand(measured));
    }
    await Promise.all(requests);
    return (performance.now() - started) / 1000;
  };

  log(`warm-up: ${RATE} commands/s for ${WARMUP_SECONDS} s to ${DEVICES} devices, not measured`);
  await paced(WARMUP_SECONDS, false);
  log(`phase 1: ${RATE} commands/s for ${SECONDS} s, measuring accepted to handed`);
  const cpu = new CpuMeter({
    'command-gateway': { pids: () => [services.gateway.pid] },
    'telemetry-ingest': { pids: () => [ingest.pid] },
    'query-api': { pids: () => [queryApi.pid] },
    kafka: { pids: services.kafkaPids },
    postgres: { command: 'postgres' },
    bench: { pids: () => [process.pid] },
  }).start();
  deviceLog.lateMs.length = 0;
  const sentSeconds = await paced(SECONDS, true);
  const lateMs = [...deviceLog.lateMs];
  const usage = cpu();
  const measured = [...sent.values()].filter((command) => command.measured);

  log('waiting for the last commands to be handed out and acknowledged');
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (measured.some((command) => !deviceLog.ackedAt.has(command.id)) && performance.now() < deadline) {
    await sleep(50);
  }
  const ids = measured.map((command) => command.id);
  const readBack = async () =>
    (
      await services.pool.query<{ id: string; status: string; finished_at: Date | null }>(
        'SELECT id, status, finished_at FROM commands.commands WHERE id = ANY($1::uuid[])',
        [ids],
      )
    ).rows;
  let rows = await readBack();
  while (
    rows.some((row) => row.status !== 'acknowledged') &&
    performance.now() < deadline + DRAIN_TIMEOUT_MS
  ) {
    await sleep(100);
    rows = await readBack();
  }
  reporting = false;
  await Promise.all(deviceLoops);
  for (const device of devices) device.close();
  routes.close();
  await requestedConsumer.disconnect();

  const statusOf = new Map(rows.map((row) => [row.id, row]));
  const handed: number[] = [];
  const acknowledged: number[] = [];
  const steps = {
    createdToOnKafka: [] as number[],
    onKafkaToHanded: [] as number[],
    onKafkaToNextReport: [] as number[],
    carryingReportRoundTrip: [] as number[],
    lastMissingReportAfterOnKafka: [] as number[],
  };
  /** Per command, how many of its device's reports were sent after it was on Kafka and did not carry it. */
  const reportsWithout: Record<string, number> = {};
  const deviceOf = new Map(devices.map((device) => [device.vehicleId, device]));
  const byType = Object.fromEntries(COMMAND_TYPES.map((type) => [type, [] as number[]]));
  let handedBeforeAccepted = 0;
  const notHanded: string[] = [];
  for (const command of measured) {
    const handedAt = deviceLog.handedAt.get(command.id);
    if (handedAt === undefined) {
      notHanded.push(command.id);
      continue;
    }
    // The device may read its answer before the bench's event loop has read the route's 200: delay 0.
    if (handedAt < command.acceptedAt) handedBeforeAccepted++;
    const delay = Math.max(0, handedAt - command.acceptedAt);
    handed.push(delay);
    byType[command.type].push(delay);
    const onKafka = onKafkaAt.get(command.id);
    if (onKafka !== undefined) {
      const onKafkaBench = onKafka - performance.timeOrigin;
      steps.createdToOnKafka.push(onKafka - command.createdAt);
      steps.onKafkaToHanded.push(handedAt - onKafkaBench);
      const carriedBy = deviceLog.handedByReportSentAt.get(command.id)!;
      const sentAt = deviceOf.get(command.vehicleId)!.sentAt;
      const next = sentAt.find((at) => at > onKafkaBench);
      if (next !== undefined) steps.onKafkaToNextReport.push(next - onKafkaBench);
      steps.carryingReportRoundTrip.push(handedAt - carriedBy);
      const without = sentAt.filter((at) => at > onKafkaBench && at < carriedBy);
      reportsWithout[without.length] = (reportsWithout[without.length] ?? 0) + 1;
      // Sent this long after the command was on Kafka, and still without it: telemetry-ingest had not
      // stored it yet (a lower bound of its consumer's delay).
      if (without.length > 0)
        steps.lastMissingReportAfterOnKafka.push(without[without.length - 1] - onKafkaBench);
    }
    const row = statusOf.get(command.id);
    if (row?.status === 'acknowledged' && row.finished_at) {
      acknowledged.push(row.finished_at.getTime() - (performance.timeOrigin + command.acceptedAt));
    }
  }
  const counts = {
    accepted: measured.length,
    handed: measured.length - notHanded.length,
    acknowledgedByDevice: measured.filter((command) => deviceLog.ackedAt.has(command.id)).length,
    acknowledged: rows.filter((row) => row.status === 'acknowledged').length,
  };
  const statuses: Record<string, number> = {};
  for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
  const peakRssMb = Object.fromEntries(
    [ingest, queryApi].map((service) => [service.app, service.peakRssMb()]),
  );
  // command-gateway alone from here.
  for (const service of [ingest, queryApi]) await service.stop();
  const handedSummary = summary(handed);
  const nothingLost = counts.accepted === counts.handed && counts.handed === counts.acknowledged;
  return {
    mode: 'distributed: telemetry-ingest, query-api and command-gateway each its own process, Kafka, PostgreSQL',
    measuredFrom: "the command route's 200, read by the bench",
    measuredTo:
      "handed: the answer to the device's report that carries the command, read by the device; " +
      "acknowledged: the command's finished_at in commands.commands (the time of the device's report " +
      'with cmdstatus=ok, as telemetry-ingest received it)',
    devices: DEVICES,
    reportIntervalMs: REPORT_INTERVAL_MS,
    commandsPerSecond: RATE,
    achievedCommandsPerSecond: round((measured.length + routeFailed) / sentSeconds, 1),
    routes:
      'PUT /v2/api/vehicles/{id}/door-lock, POST /v2/api/vehicles/{id}/ignition, POST /api/UpdateLocation (V2 has no locate route)',
    ...counts,
    nothingLost,
    commandStatuses: statuses,
    routeFailed,
    routeFailures,
    commandsSkippedNoIdleDevice: noIdleDevice,
    reHanded: deviceLog.reHanded,
    handedBeforeAcceptedRead: handedBeforeAccepted,
    notHandedExamples: notHanded.slice(0, 5),
    reports: deviceLog.reports,
    failedReports: deviceLog.failedReports,
    acceptedToHandedMs: handedSummary,
    acceptedToHandedByTypeMs: Object.fromEntries(
      Object.entries(byType).map(([type, values]) => [type, { count: values.length, ...summary(values) }]),
    ),
    acceptedToAcknowledgedMs: summary(acknowledged),
    routeLatencyMs: summary(routeLatencies),
    breakdownMs: {
      explained:
        "createdToOnKafka: the command's createdAt (command-gateway, before its transaction) to its " +
        "commands.requested.v1 record's timestamp (the outbox relay's send); onKafkaToHanded: from there to " +
        'the device reading the answer that carries it, made of onKafkaToDevicesNextReportSent (the wait ' +
        "for the device's next report, 0 to one interval), the reports sent after that still without it " +
        "(telemetry-ingest had not stored it yet; lastReportWithoutItSentAfterOnKafka bounds its consumer's " +
        'delay from below) and carryingReportRoundTrip; reportsSentLateMs: reports sent behind their ' +
        "schedule (the bench's own event loop)",
      createdToOnKafka: summary(steps.createdToOnKafka),
      onKafkaToHanded: summary(steps.onKafkaToHanded),
      onKafkaToDevicesNextReportSent: summary(steps.onKafkaToNextReport),
      reportsSentAfterOnKafkaWithoutTheCommand: reportsWithout,
      lastReportWithoutItSentAfterOnKafka: summary(steps.lastMissingReportAfterOnKafka),
      carryingReportRoundTrip: summary(steps.carryingReportRoundTrip),
      reportsSentLateMs: summary(lateMs),
    },
    cpuPercentOfOneCore: usage,
    peakRssMb,
    meetsTargets: nothingLost && routeFailed === 0 && handedSummary.p99 <= TARGET.handedP99Ms,
  };
}

/**
 * Phase 2: the door-lock route of command-gateway against a bare server with the same SQL, closed
 * loop, warm-up, then alternating slices (as bench/query).
 */
async function throughputPhase(services: Services) {
  log(`phase 2: ${THROUGHPUT_VEHICLES} vehicles seeded into command-gateway's projection`);
  const last = FIRST_THROUGHPUT_VEHICLE + THROUGHPUT_VEHICLES - 1;
  await services.pool.query(
    `INSERT INTO commands.vehicles (vehicle_id, company_ids, version)
       SELECT g, ARRAY[$3::int], 1 FROM generate_series($1::int, $2::int) g`,
    [FIRST_THROUGHPUT_VEHICLE, last, THROUGHPUT_COMPANY],
  );
  await services.pool.query('VACUUM ANALYZE commands.vehicles');
  const barePort = await freePort();
  const bare = spawn(
    process.execPath,
    [
      // The services' node options; bare-server.ts sets their V8 flags too.
      ...serviceNodeOptions.split(' '),
      '-r',
      'ts-node/register',
      join(__dirname, 'bare-server.ts'),
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        TS_NODE_TRANSPILE_ONLY: '1',
        DATABASE_URL: services.databaseUrl,
        PORT: String(barePort),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
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
        const n = Number((await services.pool.query('SELECT count(*) AS n FROM commands.outbox')).rows[0].n);
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

async function main(): Promise<void> {
  const calibration = calibrate();
  const kafka = ensureKafka();
  const database = await createBenchDatabase();
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const jwtSecret = randomUUID() + randomUUID();
  const env = {
    DATABASE_URL: database.url,
    KAFKA_BROKERS: kafka.brokers,
    KAFKA_NAMESPACE: namespace,
    AUTH_JWT_SECRET: jwtSecret,
    RATE_LIMIT_STORE: 'redis',
    RATE_LIMIT_DEFAULT: 'second=1000000',
    RATE_LIMIT_KEY_PREFIX: `${namespace}:rl:`,
    GEOCODER_PROVIDER: 'none',
  };
  const client = new Kafka({
    clientId: 'bench',
    brokers: kafka.brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const producer = client.producer({ idempotent: true });
  const pool = new Pool({ connectionString: database.url, max: 2 });
  const all: ServiceProcess[] = [];
  try {
    const gateway = await ServiceProcess.start('command-gateway', env);
    all.push(gateway);
    await producer.connect();
    await new KafkaEventPublisher(producer, namespace).publish(
      Topics.companySnapshots,
      [LATENCY_COMPANY, THROUGHPUT_COMPANY].map((companyId) => ({
        key: String(companyId),
        payload: benchCompany(companyId),
      })),
    );
    const services: Services = {
      env,
      jwtSecret,
      databaseUrl: database.url,
      pool,
      kafka: client,
      kafkaPids: kafka.pids,
      namespace,
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
      machine: machineFacts(calibration),
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
    await pool.end();
    await producer.disconnect().catch(() => undefined);
    await Promise.all(all.map((service) => service.stop()));
    await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
    await deleteNamespaceTopics(kafka.brokers, namespace);
    kafka.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
