// The contracts' event classes carry class-transformer decorators, which need the metadata polyfill.
import 'reflect-metadata';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ServiceName } from '@fleet/contracts';
import { seedDemo, StackDemo } from './demo-seed';
import { startDevProxy, Upstreams } from './dev-proxy';
import { ensureDatabase, ensureSecrets, KafkaBroker, reachable } from './infrastructure';
import { startNginx, nginxAvailable } from './nginx-entry';
import { parseReplicas, planStack, STACK_SERVICES, StackOptions } from './stack-plan';
import { logFileOf, SupervisedProcess } from './supervisor';

const USAGE = `npm run stack -- [options]: the distributed mode on this machine, in one command.
Starts a Kafka broker, creates the database, starts the six services as their own processes (logs in
files), puts one entry point in front of them, seeds a demo tenant and drives its simulated fleet.
Ctrl-C stops all of it.

  --replicas S=N,...   replicas per service, e.g. query-api=2,webhook-dispatcher=2 (default 1 each)
  --entry KIND         nginx | proxy | auto (default auto: nginx where installed, else the dev proxy)
  --port-offset N      added to every port (services 3001-3006, entry 8080, trackers 5055, Kafka 9092);
                       at most 23000, to stay below the ephemeral ports
  --data-dir DIR       secrets, logs, broker data, stack.json (default .data/stack)
  --no-demo            no demo tenant and no simulator
  --kafka-brokers H:P  use this broker instead of starting one

Environment: DATABASE_URL (PostgreSQL server and database, created if missing; default
postgres://postgres@127.0.0.1:5432/fleet_stack), REDIS_URL (default redis://127.0.0.1:6379); other
settings (docs: README "Configuration") are passed to every service. STACK_NODE_FLAGS_<SERVICE> (e.g.
STACK_NODE_FLAGS_QUERY_API="--cpu-prof --cpu-prof-dir=/tmp/prof") adds node flags to that service's
processes: flags Node refuses in NODE_OPTIONS, such as --cpu-prof, for profiling one service.`;

/** sysexits: a usage or configuration error, and a dependency that is not there. */
const EXIT_USAGE = 64;
const EXIT_CONFIG = 78;
const EXIT_UNAVAILABLE = 69;

const repoRoot = resolve(__dirname, '../../../..');

/** Node flags for one service's processes, from STACK_NODE_FLAGS_<SERVICE> (space-separated). */
function nodeFlagsOf(service: string): string[] {
  const value = process.env[`STACK_NODE_FLAGS_${service.toUpperCase().replace(/-/g, '_')}`] ?? '';
  return value.split(' ').filter((flag) => flag !== '');
}

class StackError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

function readOptions(argv: string[]): StackOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      replicas: { type: 'string', default: '' },
      entry: { type: 'string', default: 'auto' },
      'port-offset': { type: 'string', default: '0' },
      'data-dir': { type: 'string', default: '.data/stack' },
      'no-demo': { type: 'boolean', default: false },
      'kafka-brokers': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!['nginx', 'proxy', 'auto'].includes(values.entry))
    throw new StackError(`--entry must be nginx, proxy or auto, got "${values.entry}"`, EXIT_USAGE);
  // Below Linux's ephemeral range (32768 and up): a port there may be taken by an outgoing connection
  // just when a restarted service needs it back.
  if (!/^\d{1,5}$/.test(values['port-offset']) || Number(values['port-offset']) > 23_000)
    throw new StackError('--port-offset must be a whole number up to 23000', EXIT_USAGE);
  return {
    replicas: parseReplicas(values.replicas),
    entry: values.entry as StackOptions['entry'],
    portOffset: Number(values['port-offset']),
    dataDir: resolve(values['data-dir']),
    demo: !values['no-demo'],
    kafkaBrokers: values['kafka-brokers'],
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fleet_stack',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

// Whoever read the events may be gone (a closed pipe): the stack must still stop what it started.
process.stdout.on('error', () => undefined);

/** Prints one JSON line per event on stdout: what a test or a supervisor of the stack reads. */
const report = (event: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);

async function main(): Promise<void> {
  let options: StackOptions;
  try {
    options = readOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof StackError) throw error;
    throw new StackError(`${(error as Error).message}\n\n${USAGE}`, EXIT_USAGE);
  }
  const plan = planStack(options);
  mkdirSync(join(options.dataDir, 'logs'), { recursive: true });

  const ports = [
    ...plan.instances.map((instance) => ({ port: instance.httpPort, what: instance.name })),
    { port: plan.devicePort, what: 'the OsmAnd tracker port' },
    { port: plan.teltonikaPort, what: 'the Teltonika tracker port' },
    { port: plan.gt06Port, what: 'the GT06 tracker port' },
    { port: plan.entryPort, what: 'the entry point' },
  ];
  for (const { port, what } of ports)
    if (await reachable('127.0.0.1', port))
      throw new StackError(
        `port ${port} (${what}) is already in use: stop what holds it, or pick other ports with --port-offset`,
        EXIT_CONFIG,
      );
  const redis = new URL(options.redisUrl);
  if (!(await reachable(redis.hostname, Number(redis.port || 6379))))
    throw new StackError(
      `Redis is not reachable at ${redis.host} (REDIS_URL): start it, e.g. redis-server --daemonize yes`,
      EXIT_UNAVAILABLE,
    );

  const databaseName = new URL(options.databaseUrl).pathname.slice(1) || 'fleet_stack';
  if (!/^[a-z_][a-z0-9_]*$/.test(databaseName))
    throw new StackError(`DATABASE_URL names database "${databaseName}": use [a-z0-9_]`, EXIT_CONFIG);
  const databaseUrl = await ensureDatabase(options.databaseUrl, databaseName).catch((error: Error) => {
    throw new StackError(error.message, EXIT_UNAVAILABLE);
  });
  const secrets = ensureSecrets(options.dataDir);

  const broker = options.kafkaBrokers
    ? undefined
    : new KafkaBroker(repoRoot, {
        KAFKA_PORT: String(plan.kafkaPort),
        KAFKA_CONTROLLER_PORT: String(plan.kafkaControllerPort),
        KAFKA_DATA_DIR: join(options.dataDir, 'kafka'),
      });
  report({ event: 'starting', what: 'kafka' });
  const kafkaBrokers =
    options.kafkaBrokers ??
    (await broker!.start().catch((error: Error) => {
      throw new StackError(`the Kafka broker did not start: ${error.message}`, EXIT_UNAVAILABLE);
    }));

  const entryUrl = `http://127.0.0.1:${plan.entryPort}`;
  const serviceUrlEnv = Object.fromEntries(
    STACK_SERVICES.map((service) => [
      `SERVICE_URL_${service.toUpperCase().replace(/-/g, '_')}`,
      `http://127.0.0.1:${plan.instances.find((instance) => instance.service === service)!.httpPort}`,
    ]),
  );
  const processes = plan.instances.map(
    (instance) =>
      new SupervisedProcess(
        {
          name: instance.name,
          args: [
            ...nodeFlagsOf(instance.service),
            '-r',
            join(repoRoot, 'scripts/runtime-aliases.cjs'),
            join(repoRoot, `dist/apps/${instance.service}/src/main.js`),
          ],
          env: {
            ...(process.env as Record<string, string>),
            ...serviceUrlEnv,
            PUBLIC_BASE_URL: entryUrl,
            DATABASE_URL: databaseUrl,
            KAFKA_BROKERS: kafkaBrokers,
            REDIS_URL: options.redisUrl,
            AUTH_JWT_SECRET: secrets.jwtSecret,
            WEBHOOK_SECRET_KEY: secrets.webhookSecretKey,
            HTTP_HOST: '127.0.0.1',
            HTTP_PORT: String(instance.httpPort),
            INGEST_DEVICE_HOST: '127.0.0.1',
            INGEST_DEVICE_PORT: String(plan.devicePort),
            INGEST_TELTONIKA_PORT: String(plan.teltonikaPort),
            INGEST_GT06_PORT: String(plan.gt06Port),
          },
          readyUrl: `http://127.0.0.1:${instance.httpPort}/health/ready`,
          logFile: logFileOf(options.dataDir, instance.name),
        },
        (event) => {
          report(event);
          writeState();
        },
      ),
  );
  const upstreams = Object.fromEntries(
    STACK_SERVICES.map((service) => [
      service,
      plan.instances
        .filter((instance) => instance.service === service)
        .map((instance) => `http://127.0.0.1:${instance.httpPort}`),
    ]),
  ) as Record<ServiceName, string[]>;

  let entry: { kind: 'nginx' | 'proxy'; close(): Promise<void> } | undefined;
  let simulator: SupervisedProcess | undefined;
  let demo: StackDemo | undefined;
  const stateFile = join(options.dataDir, 'stack.json');
  function writeState(): void {
    const state = {
      pid: process.pid,
      entry: entry && { kind: entry.kind, url: entryUrl },
      trackers: `http://127.0.0.1:${plan.devicePort}`,
      kafkaBrokers,
      database: databaseUrl.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@'),
      processes: [...processes, ...(simulator ? [simulator] : [])].map((process) => ({
        name: process.spec.name,
        pid: process.pid,
        url: process.spec.readyUrl?.replace(/\/health\/ready$/, ''),
        log: process.spec.logFile,
        restarts: process.restartCount,
        totalRestarts: process.totalRestartCount,
      })),
      demo: demo && join(options.dataDir, 'demo-credentials.json'),
    };
    // Whole or not at all for a reader (a test, the fault matrix): written aside, then renamed.
    writeFileSync(`${stateFile}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(`${stateFile}.tmp`, stateFile);
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const process of [...processes, ...(simulator ? [simulator] : [])]) process.markStopping();
      report({ event: 'stopping' });
      await simulator?.stop(5_000);
      await entry?.close();
      await Promise.all(processes.map((process) => process.stop(30_000)));
      await broker?.stop();
      report({ event: 'stopped' });
    })());
  process.once('SIGINT', () => void stop().then(() => process.exit(0)));
  process.once('SIGTERM', () => void stop().then(() => process.exit(0)));

  try {
    report({ event: 'starting', what: 'services', processes: processes.map((process) => process.spec.name) });
    for (const process of processes) process.start();
    writeState();
    await Promise.all(processes.map((process) => process.waitUntilReady(180_000)));

    const kind = options.entry === 'auto' ? ((await nginxAvailable()) ? 'nginx' : 'proxy') : options.entry;
    entry =
      kind === 'nginx'
        ? { kind, ...(await startNginx(join(options.dataDir, 'nginx'), plan.entryPort, upstreams)) }
        : { kind, ...(await startDevProxy(plan.entryPort, upstreams as Upstreams)) };
    writeState();

    if (options.demo) {
      demo = await seedDemo({
        repoRoot,
        dataDir: options.dataDir,
        databaseUrl,
        baseUrl: entryUrl,
        osmandUrl: `http://127.0.0.1:${plan.devicePort}`,
        teltonika: { host: '127.0.0.1', port: plan.teltonikaPort },
        gt06: { host: '127.0.0.1', port: plan.gt06Port },
      });
      simulator = new SupervisedProcess(
        {
          name: 'simulator',
          args: [
            '-r',
            join(repoRoot, 'scripts/runtime-aliases.cjs'),
            join(repoRoot, 'dist/apps/simulator/src/main.js'),
            '--credentials',
            join(options.dataDir, 'demo-credentials.json'),
          ],
          env: { ...(process.env as Record<string, string>) },
          logFile: logFileOf(options.dataDir, 'simulator'),
        },
        report,
      );
      simulator.start();
      writeState();
    }
  } catch (error) {
    await stop();
    throw error;
  }

  report({ event: 'ready', entry: entryUrl, entryKind: entry.kind, state: stateFile });
  printSummary({ entryUrl, entryKind: entry.kind, plan, kafkaBrokers, dataDir: options.dataDir, demo });
}

function printSummary(summary: {
  entryUrl: string;
  entryKind: string;
  plan: ReturnType<typeof planStack>;
  kafkaBrokers: string;
  dataDir: string;
  demo?: StackDemo;
}): void {
  const lines = [
    '',
    `Fleet Telemetry, distributed, is up. Ctrl-C stops all of it.`,
    `  public interfaces (V2 /v2/api, V1 /api): ${summary.entryUrl}  (${summary.entryKind})`,
    `  interface document:                      ${summary.entryUrl}/v2/api/docs`,
    `  trackers (OsmAnd):                       http://127.0.0.1:${summary.plan.devicePort}`,
    `  trackers (Teltonika TCP/UDP, GT06 TCP):  127.0.0.1:${summary.plan.teltonikaPort}, 127.0.0.1:${summary.plan.gt06Port}`,
    `  Kafka:                                   ${summary.kafkaBrokers}`,
    ...summary.plan.instances.map(
      (instance) =>
        `  ${instance.name.padEnd(22)} http://127.0.0.1:${instance.httpPort}  (health, /metrics)  log ${logFileOf(summary.dataDir, instance.name)}`,
    ),
    `  state (pids, logs):                      ${join(summary.dataDir, 'stack.json')}`,
  ];
  if (summary.demo)
    lines.push(
      `  demo tenant: ${join(summary.dataDir, 'demo-credentials.json')}`,
      `    KEY=$(node -p 'require("${join(summary.dataDir, 'demo-credentials.json')}").companies[0].apiKey')`,
      `    TOKEN=$(curl -s -X POST ${summary.entryUrl}/v2/api/authentication/token/api-key -d "apiKey=$KEY" | node -p 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
      `    curl -s ${summary.entryUrl}/v2/api/companies/${summary.demo.companies[0].id}/vehicles/last-position -H "Authorization: Bearer $TOKEN"`,
    );
  process.stderr.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  const code = error instanceof StackError ? error.exitCode : 1;
  process.stderr.write(`npm run stack: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(code);
});
