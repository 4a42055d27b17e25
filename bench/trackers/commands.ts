/**
 * Phase `commands`: from a command route's 200 to the command's bytes on the device's socket.
 *
 * Distributed: two telemetry-ingest replicas, each with its own tracker ports, and command-gateway.
 * `--command-devices` Teltonika devices connect, spread evenly over the replicas, log in and send a fix
 * (commands go only to a session with an accepted fix). Then `PUT /v2/api/vehicles/{id}/door-lock
 * ?isLock=true|false` goes at `--command-rate` per second, `--command-warmup` seconds unmeasured, then
 * `--command-seconds` measured, each to a random device without a command in flight (nor one in the
 * last 2 s, so that none supersedes a command whose answer is on its way). The path: the
 * route stores the command and its outbox row, the relay publishes it on Kafka, a replica consumes and
 * stores it and NOTIFYs, and the replica holding the device's session writes it as Codec 12. The
 * device reads the frame (the generator stamps the time) and answers, as an FMB does, so that the
 * command is acknowledged. Embedded: the same against the fleet app alone.
 *
 * The route's 200 is read here and the bytes' arrival in the generator: both are wall-clock times of
 * this machine (performance.timeOrigin + performance.now()).
 */
import { HttpClient } from '../common/http-load';
import { log, round, sleep } from '../common/infra';
import { Context, cpuMeter, selfReport } from './context';
import { DeviceSpec, epochMs, summarize } from './protocol';
import { statusCountsOf } from './commands.queries';

export const COMMANDS_TARGET = { acceptedToBytesP99Ms: 200 };
const DRAIN_TIMEOUT_MS = 30_000;
const COOL_DOWN_MS = 2_000;

interface SentCommand {
  id?: string;
  imei: string;
  vehicleId: number;
  replica: number;
  lock: boolean;
  measured: boolean;
  requestedAt: number;
  acceptedAt?: number;
  /** command-gateway's createdAt (epoch ms). */
  createdAt?: number;
  arrivedAt?: number;
  text?: string;
}

export async function commandsPhase(ctx: Context) {
  const { setup, generators, settings } = ctx;
  const path = await setup.commandPath();
  if (ctx.connected.size > 0) {
    // The earlier phases' sessions go first: a stale session of a vehicle on the first replica would
    // take the command the second replica's live session should get.
    log(`commands: closing the ${ctx.connected.size} connections of the earlier phases`);
    await generators.disconnect();
    ctx.connected.clear();
    const deadline = performance.now() + 30_000;
    while ((await selfReport(setup.ingest)).teltonikaSessions > 0 && performance.now() < deadline)
      await sleep(250);
  }

  const vehicles = setup.vehicles.slice(0, settings.commandDevices);
  const devices: DeviceSpec[] = vehicles.map((vehicle, i) => ({
    imei: vehicle.imei,
    index: vehicle.index,
    port: path.replicas[i % path.replicas.length].trackerPorts.teltonika,
  }));
  log(`commands: ${devices.length} devices over ${path.replicas.length} replica(s)`);
  const connect = await generators.connect(devices, settings.connectConcurrency, true);
  ctx.acknowledged += connect.connected;
  await generators.ping(settings.pingSeconds);
  if (connect.connected < devices.length) {
    throw new Error(
      `only ${connect.connected} of ${devices.length} command devices connected: ${JSON.stringify(connect.errors)}`,
    );
  }
  const sessions = await Promise.all(
    path.replicas.map(async (replica) => (await selfReport(replica)).teltonikaSessions),
  );

  const replicaOf = new Map(vehicles.map((vehicle, i) => [vehicle.imei, i % path.replicas.length]));
  const inFlight = new Map<string, SentCommand>();
  const sent: SentCommand[] = [];
  const lastArrivedAt = new Map<string, number>();
  let unexpected = 0;
  ctx.onCommand = (imei, text, at) => {
    const command = inFlight.get(imei);
    if (!command) return void unexpected++;
    command.arrivedAt = at;
    command.text = text;
    inFlight.delete(imei);
    lastArrivedAt.set(imei, at);
  };

  const routes = new HttpClient(path.routeBaseUrl, 16);
  const routeFailures: Record<string, string> = {};
  let routeFailed = 0;
  let noIdleDevice = 0;
  /**
   * A device without a command in flight, and none in the last COOL_DOWN_MS: its answer to the last one
   * has been recorded, so that a new door lock does not supersede a command still `sent`.
   */
  const idle = (imei: string) =>
    !inFlight.has(imei) && !((lastArrivedAt.get(imei) ?? -Infinity) > epochMs() - COOL_DOWN_MS);
  const idleVehicle = () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const vehicle = vehicles[Math.floor(Math.random() * vehicles.length)];
      if (idle(vehicle.imei)) return vehicle;
    }
    return vehicles.find((vehicle) => idle(vehicle.imei));
  };
  const sendCommand = async (measured: boolean) => {
    const vehicle = idleVehicle();
    if (!vehicle) return void noIdleDevice++;
    const command: SentCommand = {
      imei: vehicle.imei,
      vehicleId: vehicle.id,
      replica: replicaOf.get(vehicle.imei)!,
      lock: Math.random() < 0.5,
      measured,
      requestedAt: epochMs(),
    };
    inFlight.set(vehicle.imei, command);
    let answer: { status: number; body: string };
    try {
      answer = await routes.send(
        'PUT',
        `/v2/api/vehicles/${vehicle.id}/door-lock?isLock=${command.lock}`,
        undefined,
        {
          authorization: path.authorization,
        },
      );
    } catch (error) {
      answer = { status: 0, body: String(error) };
    }
    command.acceptedAt = epochMs();
    if (answer.status !== 200) {
      if (inFlight.get(vehicle.imei) === command) inFlight.delete(vehicle.imei);
      routeFailed++;
      routeFailures[answer.status] = answer.body.slice(0, 300);
      return;
    }
    const body = JSON.parse(answer.body) as { id: string; createdAt: string };
    command.id = body.id;
    command.createdAt = Date.parse(body.createdAt);
    sent.push(command);
  };
  /** `seconds` of commands at the rate, each without waiting for the one before. */
  const paced = async (seconds: number, measured: boolean) => {
    const requests: Promise<void>[] = [];
    const started = performance.now();
    for (let tick = 0; tick < seconds * settings.commandRate; tick++) {
      const wait = started + (tick * 1000) / settings.commandRate - performance.now();
      if (wait > 0) await sleep(wait);
      requests.push(sendCommand(measured));
    }
    await Promise.all(requests);
    return (performance.now() - started) / 1000;
  };

  if (settings.commandWarmupSeconds > 0) {
    log(`commands: warm-up, ${settings.commandRate}/s for ${settings.commandWarmupSeconds} s`);
    await paced(settings.commandWarmupSeconds, false);
  }
  log(`commands: ${settings.commandRate}/s for ${settings.commandSeconds} s, measured`);
  const cpu = cpuMeter(ctx).start();
  await generators.status();
  const seconds = await paced(settings.commandSeconds, true);
  const usage = cpu();
  const generatorStatus = await generators.status();
  const measured = sent.filter((command) => command.measured);
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (measured.some((command) => command.arrivedAt === undefined) && performance.now() < deadline)
    await sleep(50);

  // Every measured command acknowledged by its device's Codec 12 answer, read back from command-gateway.
  const ids = measured.map((command) => command.id!);
  const readBack = () => statusCountsOf(setup.pool, ids);
  let statuses = await readBack();
  while (
    statuses.some((row) => row.status !== 'acknowledged') &&
    performance.now() < deadline + DRAIN_TIMEOUT_MS
  ) {
    await sleep(250);
    statuses = await readBack();
  }
  routes.close();

  const arrived = measured.filter((command) => command.arrivedAt !== undefined);
  const delay = (command: SentCommand) => Math.max(0, command.arrivedAt! - command.acceptedAt!);
  const acceptedToBytes = summarize(arrived.map(delay));
  const wrongText = arrived.filter((command) => command.text !== `setdigout ?${command.lock ? 1 : 0}`).length;
  const onKafkaAt = path.onKafkaAt;
  const onKafka = onKafkaAt ? arrived.filter((command) => onKafkaAt.has(command.id!)) : [];
  log(`commands: accepted to bytes p50 ${acceptedToBytes.p50} ms, p99 ${acceptedToBytes.p99} ms`);
  return {
    route: 'PUT /v2/api/vehicles/{id}/door-lock?isLock=true|false',
    replicas: path.replicas.map((replica, i) => ({
      app: replica.app,
      teltonikaPort: replica.trackerPorts.teltonika,
      sessions: sessions[i],
    })),
    devices: devices.length,
    connect,
    commandsPerSecond: settings.commandRate,
    achievedCommandsPerSecond: round((measured.length + routeFailed) / seconds, 1),
    accepted: measured.length,
    bytesArrived: arrived.length,
    acknowledged: Number(statuses.find((row) => row.status === 'acknowledged')?.n ?? 0),
    commandStatuses: Object.fromEntries(statuses.map((row) => [row.status, Number(row.n)])),
    routeFailed,
    routeFailures,
    commandsSkippedNoIdleDevice: noIdleDevice,
    unexpectedCommandFrames: unexpected,
    wrongCommandText: wrongText,
    arrivedBeforeAcceptedRead: arrived.filter((command) => command.arrivedAt! < command.acceptedAt!).length,
    measuredFrom: "the route's 200, read by the bench",
    measuredTo: 'the Codec 12 frame read whole by the device (the generator process)',
    acceptedToBytesMs: acceptedToBytes,
    acceptedToBytesByReplicaMs: path.replicas.map((_, i) =>
      summarize(arrived.filter((command) => command.replica === i).map(delay)),
    ),
    requestToBytesMs: summarize(arrived.map((command) => command.arrivedAt! - command.requestedAt)),
    routeLatencyMs: summarize(measured.map((command) => command.acceptedAt! - command.requestedAt)),
    ...(onKafkaAt
      ? {
          breakdownMs: {
            explained:
              "createdToOnKafka: the command's createdAt (command-gateway, before its transaction) to its " +
              "commands.requested.v1 record's timestamp (the outbox relay's send); onKafkaToBytes: from there " +
              'to the bytes on the device (a replica consumes, stores and NOTIFYs; the holder writes)',
            createdToOnKafka: summarize(
              onKafka.map((command) => onKafkaAt.get(command.id!)! - command.createdAt!),
            ),
            onKafkaToBytes: summarize(
              onKafka.map((command) => command.arrivedAt! - onKafkaAt.get(command.id!)!),
            ),
          },
        }
      : {}),
    cpuPercentOfOneCore: usage,
    generator: generatorStatus,
    meetsTarget:
      routeFailed === 0 &&
      arrived.length === measured.length &&
      measured.length > 0 &&
      acceptedToBytes.p99 <= COMMANDS_TARGET.acceptedToBytesP99Ms,
  };
}
