/**
 * bench/trackers (issue 29): the Teltonika tracker port under the load of a fleet.
 *
 *   connections  `--connections` (10,000) Teltonika TCP devices held open with periodic pings: the
 *                ingest process's resident memory before and after, per connection (connections.ts);
 *   throughput   `--senders` (1,000) of them sending Codec 8E packets of `--records` (10) records in a
 *                closed loop: records/s acknowledged and stored end to end in query.positions; then an
 *                open-loop step at half that rate: acknowledgement latency (throughput.ts);
 *   commands     door-lock route's 200 → Codec 12 bytes on the device's socket, with two telemetry-ingest
 *                replicas holding the devices (commands.ts).
 *   all          the three in that order (default); throughput reuses the connections of the first.
 *
 * Distributed by default (telemetry-ingest and query-api processes as deployed, Kafka from
 * scripts/kafka.sh unless KAFKA_BROKERS, a fresh database on the machine's PostgreSQL); `--embedded`
 * runs the fleet app as `npm start` does instead. The devices live in `--generators` (1) child
 * processes (generator.ts), started with the open-files limit their sockets need; their CPU and event
 * loop delay are reported with every step. Everything binds and connects to 127.0.0.1 only.
 *
 * Usage: npm run bench:trackers [-- --mode all|connections|throughput|commands --embedded
 *   --connections 10000 --senders 1000 --records 10 --seconds 30 --warmup 30 --open-rate N
 *   --open-seconds 30 --open-warmup 15 --hold-seconds 60 --ping-seconds 20 --connect-concurrency 200 --no-first-fix
 *   --command-devices 1000 --command-rate 20 --command-seconds 30 --command-warmup 5 --generators 1
 *   --max-minutes 30 --ingest-kafka-client kafkajs|platformatic]
 * Prints one JSON document on stdout, progress on stderr. Stops by itself after `--max-minutes`, and on
 * Ctrl-C, and removes whatever it started (lifecycle.ts).
 */
// First: the contracts' class-transformer decorators read design types when they are loaded.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { calibrate, kafkaClientFlag, log, machineFacts, numberFlag } from '../common/infra';
import { commandsPhase, COMMANDS_TARGET } from './commands';
import { connectionsPhase, CONNECTIONS_TARGET } from './connections';
import { connectDevices, Context, devicesOn, peakRss, Settings } from './context';
import { generatorCapacity } from './generator-capacity';
import { Generators } from './generators';
import { cleanUp, guardRun, openFilesLimit, stoppedBecause } from './lifecycle';
import { distributedSetup, embeddedSetup } from './setup';
import { THROUGHPUT_TARGET, throughputPhase } from './throughput';

const MODES = ['connections', 'throughput', 'commands'] as const;
type Mode = (typeof MODES)[number];

/** The issue's sizes: a run with any of them changed says so in its JSON (`atIssueSizes`). */
const ISSUE_SIZES = { connections: 10_000, senders: 1_000, records: 10 };

/** The phases of `--mode`; `generator` (the generator's own ceiling) runs alone. */
function modeFlag(): Mode[] | 'generator' {
  const at = process.argv.indexOf('--mode');
  const mode = at > 0 ? process.argv[at + 1] : 'all';
  if (mode === 'all') return [...MODES];
  if (mode === 'generator') return mode;
  if (!(MODES as readonly string[]).includes(mode))
    throw new Error(`--mode must be all, generator or one of ${MODES.join(', ')}`);
  return [mode as Mode];
}

const mode = modeFlag();
const modes = mode === 'generator' ? [] : mode;
const EMBEDDED = process.argv.includes('--embedded');
const GENERATORS = numberFlag('generators', 1);
const MAX_MINUTES = numberFlag('max-minutes', 30);
const openRateAt = process.argv.indexOf('--open-rate');
const seconds = numberFlag('seconds', 30);
const settings: Settings = {
  connections: numberFlag('connections', ISSUE_SIZES.connections),
  senders: numberFlag('senders', ISSUE_SIZES.senders),
  recordsPerPacket: numberFlag('records', ISSUE_SIZES.records),
  seconds,
  // A broker JVM started for the run compiles its hot paths during the first minute of load: 30 s of
  // closed loop, and 15 s of the open loop's own rate, before each measured step keep that (a
  // quarter of a core on the 2-core machine) out of the figures (docs/performance-trackers.md).
  warmupSeconds: numberFlag('warmup', 30),
  openRate: openRateAt > 0 ? Number(process.argv[openRateAt + 1]) : undefined,
  openSeconds: numberFlag('open-seconds', seconds),
  openWarmupSeconds: numberFlag('open-warmup', 15),
  holdSeconds: numberFlag('hold-seconds', 60),
  pingSeconds: numberFlag('ping-seconds', 20),
  connectConcurrency: numberFlag('connect-concurrency', 200),
  firstFix: !process.argv.includes('--no-first-fix'),
  commandDevices: numberFlag('command-devices', 1_000),
  commandRate: numberFlag('command-rate', 20),
  commandSeconds: numberFlag('command-seconds', 30),
  commandWarmupSeconds: numberFlag('command-warmup', 5),
};

/** `--mode generator`: no services, the generator against a stand-in server. */
async function generatorMode(calibration: ReturnType<typeof calibrate>): Promise<void> {
  const generators = await Generators.start(
    GENERATORS,
    Math.ceil(settings.senders / GENERATORS) + 1_000,
    () => undefined,
  );
  const capacity = await generatorCapacity(
    generators,
    settings.senders,
    settings.seconds,
    settings.recordsPerPacket,
    settings.connectConcurrency,
  );
  const result = {
    bench: 'trackers',
    machine: machineFacts(calibration),
    config: {
      modes: ['generator'],
      senders: settings.senders,
      recordsPerPacket: settings.recordsPerPacket,
      seconds: settings.seconds,
      generators: GENERATORS,
    },
    generatorCapacity: capacity,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

/** What the run needs of this machine and of the flags, checked before anything starts. */
function plan() {
  const usesIngestPath = modes.includes('connections') || modes.includes('throughput');
  const connections = usesIngestPath ? settings.connections : 0;
  if (modes.includes('throughput') && settings.senders > settings.connections) {
    throw new Error('--senders cannot exceed --connections');
  }
  if (modes.includes('throughput') && !settings.firstFix) {
    throw new Error(
      '--no-first-fix is for the connections mode alone: the throughput phase counts every record',
    );
  }
  const vehicleCount = Math.max(connections, modes.includes('commands') ? settings.commandDevices : 0);
  // Sockets plus what Node, ts-node and the IPC channel hold.
  const generatorFiles = Math.ceil(Math.max(connections, settings.commandDevices) / GENERATORS) + 1_000;
  const ports = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  if (ports[1] - ports[0] < connections + settings.commandDevices + 1_000) {
    log(`only ${ports[1] - ports[0]} ephemeral ports (net.ipv4.ip_local_port_range): connections may fail`);
  }
  const benchLimit = openFilesLimit('self');
  log(
    `open files: this process ${benchLimit.soft} (hard ${benchLimit.hard}); each generator wants ${generatorFiles}`,
  );
  return { connections, vehicleCount, generatorFiles, benchLimit };
}

type Plan = ReturnType<typeof plan>;

/** The services (distributed or embedded) and the generators, joined in one context. */
async function start(run: Plan, calibration: ReturnType<typeof calibrate>): Promise<Context> {
  const deviceCount = Math.max(run.connections, settings.commandDevices);
  const setup = EMBEDDED
    ? await embeddedSetup(run.vehicleCount, deviceCount)
    : await distributedSetup(run.vehicleCount, deviceCount, calibration);
  // Commands reach the phase that listens through the context, which needs the generators first.
  const listener: { context?: Context } = {};
  const generators = await Generators.start(GENERATORS, run.generatorFiles, (imei, text, at) =>
    listener.context?.onCommand(imei, text, at),
  );
  const ctx: Context = {
    setup,
    generators,
    settings,
    acknowledged: 0,
    connected: new Set(),
    onCommand: () => undefined,
  };
  listener.context = ctx;
  return ctx;
}

/** The phases of `--mode`, in order. */
async function runPhases(ctx: Context) {
  let throughputConnect: unknown;
  const connections = modes.includes('connections') ? await connectionsPhase(ctx) : undefined;
  if (modes.includes('throughput') && !connections) {
    // Throughput alone: the same population of connected devices, without the hold.
    const devices = devicesOn(ctx, settings.connections, ctx.setup.ingest);
    log(`throughput: connecting ${devices.length} devices first`);
    throughputConnect = await connectDevices(ctx, devices);
    for (const device of devices) ctx.connected.add(device.imei);
    await ctx.generators.ping(settings.pingSeconds);
  }
  const throughput = modes.includes('throughput') ? await throughputPhase(ctx) : undefined;
  const commands = modes.includes('commands') ? await commandsPhase(ctx) : undefined;
  return { connections, throughputConnect, throughput, commands };
}

/** The JSON document of a run of the phases. */
function resultOf(
  run: Plan,
  calibration: ReturnType<typeof calibrate>,
  ctx: Context,
  phases: Awaited<ReturnType<typeof runPhases>>,
) {
  const atIssueSizes =
    settings.connections === ISSUE_SIZES.connections &&
    settings.senders === ISSUE_SIZES.senders &&
    settings.recordsPerPacket === ISSUE_SIZES.records;
  return {
    bench: 'trackers',
    machine: { ...machineFacts(calibration), openFilesLimitOfBench: run.benchLimit },
    config: {
      modes,
      setup: EMBEDDED
        ? 'embedded: apps/fleet as `npm start` runs it (in-process transport, embedded PostgreSQL), no demo tenant'
        : 'distributed: telemetry-ingest and query-api (plus a second telemetry-ingest and command-gateway ' +
          'for commands) as processes with the deployed Node options, Kafka, PostgreSQL',
      transport: EMBEDDED ? 'in-process (embedded app)' : 'kafka',
      ingestKafkaClient: EMBEDDED ? undefined : kafkaClientFlag('ingest-kafka-client'),
      protocol: 'Teltonika over TCP (Codec 8E records, Codec 12 commands), 127.0.0.1',
      vehicles: run.vehicleCount,
      ...settings,
      openRate: settings.openRate ?? 'half the closed loop end-to-end rate',
      generators: GENERATORS,
      generatorOpenFilesWanted: run.generatorFiles,
      maxMinutes: MAX_MINUTES,
      atIssueSizes,
      ingestSettings: {
        INGEST_MAX_CONNECTIONS_PER_ADDRESS: Math.max(run.connections, settings.commandDevices) + 1_000,
        RATE_LIMIT_DEFAULT: 'second=1000000',
      },
    },
    connections: phases.connections,
    throughputConnect: phases.throughputConnect,
    throughput: phases.throughput,
    commands: phases.commands,
    peakRssMb: peakRss(ctx),
    targets: {
      connections: {
        ...CONNECTIONS_TARGET,
        appliesTo: 'telemetry-ingest (distributed); the whole app when embedded',
      },
      throughput: THROUGHPUT_TARGET,
      commands: { ...COMMANDS_TARGET, appliesTo: 'distributed, two telemetry-ingest replicas' },
    },
    meetsTargets: {
      connections: phases.connections?.meetsTarget,
      throughputStored: phases.throughput?.meetsTargets.stored,
      throughputOpenLoopAckP99: phases.throughput?.meetsTargets.openLoopAckP99,
      commands: phases.commands?.meetsTarget,
      note: atIssueSizes ? undefined : 'not at the issue sizes: these verdicts are not the issue targets',
    },
  };
}

async function main(): Promise<void> {
  guardRun(MAX_MINUTES);
  const calibration = calibrate();
  if (mode === 'generator') return generatorMode(calibration);
  const run = plan();
  const ctx = await start(run, calibration);
  const phases = await runPhases(ctx);
  process.stdout.write(`${JSON.stringify(resultOf(run, calibration, ctx, phases), null, 2)}\n`);
}

main()
  .then(() => cleanUp())
  .then(
    () => process.exit(0),
    async (error: unknown) => {
      const stopped = stoppedBecause();
      // Stopped from outside: what failed then is only the consequence of cleaning up under the run.
      if (stopped) process.stderr.write(`bench stopped (${stopped})\n`);
      else process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      await cleanUp();
      process.exit(1);
    },
  );
