/**
 * Phase 1 of bench/commands: accepted → handed to a device that reports every REPORT_INTERVAL_MS →
 * acknowledged. In steps: the services join and learn the registered vehicles, the bench listens on
 * Kafka, the devices report, commands go at a steady rate, and what the devices saw is matched with
 * the broker's timestamps and command-gateway's table.
 */
import { Topics } from '@fleet/contracts';
import { dataSourceOptions } from '@fleet/platform';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { DataSource } from 'typeorm';
import { CpuMeter } from '../common/cpu-meter';
import { HttpClient } from '../common/http-load';
import { log, round, ServiceProcess, sleep, until } from '../common/infra';
import { recordTimes } from '../common/record-times';
import { benchToken } from '../common/tenant';
import { CommandStatusRow } from './commands.queries';
import { COMMAND_TYPES, CommandType, Device, DeviceLog, imeiOf } from './device';
import { Services, summary } from './harness';
import {
  DEVICES,
  DRAIN_TIMEOUT_MS,
  LATENCY_COMPANY,
  RATE,
  REPORT_INTERVAL_MS,
  SECONDS,
  TARGET,
  WARMUP_SECONDS,
} from './options';

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

/** telemetry-ingest and query-api join; DEVICES vehicles registered, known to ingest and command-gateway. */
async function joinAndRegister(services: Services) {
  log('phase 1: telemetry-ingest and query-api join');
  const [ingest, queryApi] = await Promise.all([
    ServiceProcess.start('telemetry-ingest', services.env),
    ServiceProcess.start('query-api', services.env),
  ]);
  services.all.push(ingest, queryApi);

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
    (await services.queries.ingestDeviceSessions()) === DEVICES &&
    (await services.queries.gatewayVehicles()) === DEVICES
      ? true
      : undefined,
  );
  return { ingest, queryApi, vehicles };
}

/** When each command reached Kafka: its record's timestamp, set by command-gateway's outbox relay. */
const listenOnKafka = (services: Services) =>
  recordTimes(services.kafka, services.namespace, {
    topic: Topics.commandsRequested,
    group: 'bench-requested',
    keyOf: (command) => command.commandId,
  });

/** The devices, reporting on their schedules until stopped; fails unless every device was accepted. */
async function startDevices(vehicles: { id: number; imei: string }[], ingest: ServiceProcess) {
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
  const stop = async () => {
    reporting = false;
    await Promise.all(deviceLoops);
    for (const device of devices) device.close();
  };
  return { deviceLog, busy, devices, stop };
}

/** Commands to idle devices through command-gateway's routes, at RATE per second. */
function commandSender(services: Services, devices: Device[], busy: Set<number>) {
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

  return {
    sent,
    routeLatencies,
    routeFailures,
    routeFailed: () => routeFailed,
    noIdleDevice: () => noIdleDevice,
    paced,
    close: () => routes.close(),
  };
}

/** Waits for the measured commands to be acknowledged by their devices, then in command-gateway's table. */
async function drain(services: Services, measured: SentCommand[], deviceLog: DeviceLog) {
  log('waiting for the last commands to be handed out and acknowledged');
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (measured.some((command) => !deviceLog.ackedAt.has(command.id)) && performance.now() < deadline) {
    await sleep(50);
  }
  const ids = measured.map((command) => command.id);
  const readBack = () => services.queries.statusesOf(ids);
  let rows = await readBack();
  while (
    rows.some((row) => row.status !== 'acknowledged') &&
    performance.now() < deadline + DRAIN_TIMEOUT_MS
  ) {
    await sleep(100);
    rows = await readBack();
  }
  return rows;
}

/** The delays of the measured commands, and where their time went. */
function analyse(
  measured: SentCommand[],
  seen: { deviceLog: DeviceLog; onKafkaAt: Map<string, number>; devices: Device[]; rows: CommandStatusRow[] },
) {
  const { deviceLog, onKafkaAt, devices, rows } = seen;
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
  return { handed, acknowledged, steps, reportsWithout, byType, handedBeforeAccepted, notHanded };
}

export async function latencyPhase(services: Services) {
  const { ingest, queryApi, vehicles } = await joinAndRegister(services);
  const requested = await listenOnKafka(services);
  const { deviceLog, busy, devices, stop } = await startDevices(vehicles, ingest);
  const commands = commandSender(services, devices, busy);

  log(`warm-up: ${RATE} commands/s for ${WARMUP_SECONDS} s to ${DEVICES} devices, not measured`);
  await commands.paced(WARMUP_SECONDS, false);
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
  const sentSeconds = await commands.paced(SECONDS, true);
  const lateMs = [...deviceLog.lateMs];
  const usage = cpu();
  const measured = [...commands.sent.values()].filter((command) => command.measured);
  const rows = await drain(services, measured, deviceLog);
  await stop();
  commands.close();
  await requested.stop();

  const { handed, acknowledged, steps, reportsWithout, byType, handedBeforeAccepted, notHanded } = analyse(
    measured,
    { deviceLog, onKafkaAt: requested.at, devices, rows },
  );
  const routeFailed = commands.routeFailed();
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
    routeFailures: commands.routeFailures,
    commandsSkippedNoIdleDevice: commands.noIdleDevice(),
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
    routeLatencyMs: summary(commands.routeLatencies),
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
