/**
 * What the ingest and query benchmarks stand on: the real infrastructure of the distributed mode
 * (Kafka from scripts/kafka.sh, the machine's PostgreSQL), and the services as separate processes
 * from the compiled build. Progress goes to stderr; stdout is left for the JSON result.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { dataSourceOptions, ServiceSchema, serviceNodeOptions } from '@fleet/platform';
import { freePort } from '@fleet/testing';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDatabase, dropDatabase } from './infra.queries';

export const repoRoot = join(__dirname, '../..');

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 100 ms until it gives a value; fails after `timeoutMs` with `what`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The tests' free port (below the ephemeral range): a port `listen(0)` picked could be handed to an
 * outgoing connection before the service bound it, which made a bench's fleet app fail to start with
 * "HTTP_PORT=… is already in use" right after a tracker run of thousands of connections.
 */
export { freePort };

/** The bench's own broker (apart from a developer's on 9092 and the tests' on 19092), unless KAFKA_BROKERS is set. */
const BENCH_KAFKA_ENV = {
  KAFKA_PORT: '29092',
  KAFKA_CONTROLLER_PORT: '29093',
  KAFKA_DATA_DIR: join(repoRoot, '.data/kafka-bench'),
};

/**
 * The broker's JVM, if scripts/kafka.sh started it with the bench's settings, or with the
 * KAFKA_DATA_DIR of this environment (a broker given by KAFKA_BROKERS), for CpuMeter.
 */
function benchKafkaPids(): number[] {
  const dataDir =
    process.env.KAFKA_BROKERS && process.env.KAFKA_DATA_DIR
      ? process.env.KAFKA_DATA_DIR
      : BENCH_KAFKA_ENV.KAFKA_DATA_DIR;
  try {
    const pid = Number(readFileSync(join(dataDir, 'kafka.pid'), 'utf8').trim());
    return existsSync(`/proc/${pid}`) ? [pid] : [];
  } catch {
    return [];
  }
}

export function ensureKafka(): { brokers: string; stop(): void; pids(): number[] } {
  if (process.env.KAFKA_BROKERS)
    return { brokers: process.env.KAFKA_BROKERS, stop: () => undefined, pids: benchKafkaPids };
  log('starting Kafka (scripts/kafka.sh) on 127.0.0.1:29092');
  const output = execFileSync('bash', [join(repoRoot, 'scripts/kafka.sh'), 'start'], {
    cwd: repoRoot,
    env: { ...process.env, ...BENCH_KAFKA_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const brokers = /KAFKA_BROKERS=(\S+)/.exec(output)?.[1];
  if (!brokers) throw new Error(`could not start Kafka:\n${output}`);
  return {
    brokers,
    pids: benchKafkaPids,
    stop: () =>
      execFileSync('bash', [join(repoRoot, 'scripts/kafka.sh'), 'stop'], {
        cwd: repoRoot,
        env: { ...process.env, ...BENCH_KAFKA_ENV },
        stdio: 'ignore',
      }),
  };
}

/**
 * Deletes the topics of one run's namespace, so that runs do not pile up partitions (each run makes
 * ~40, with their index files) in the bench broker's data directory.
 */
export async function deleteNamespaceTopics(brokers: string, namespace: string): Promise<void> {
  const admin = new Kafka({
    clientId: 'bench-cleanup',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${namespace}.`));
    if (topics.length) await admin.deleteTopics({ topics });
  } catch (error) {
    log(`could not delete the run's topics: ${String(error)}`);
  } finally {
    await admin.disconnect();
  }
}

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database for one run, dropped at the end. */
export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fleet_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await createDatabase(admin, name);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: ADMIN_URL });
      await client.connect();
      await dropDatabase(client, name);
      await client.end();
    },
  };
}

/** One compiled app of apps/ in its own process. */
export class ServiceProcess {
  private constructor(
    readonly app: string,
    readonly baseUrl: string,
    readonly deviceUrl: string,
    /** The Teltonika (TCP and UDP) and GT06 ports it was given (INGEST_TELTONIKA_PORT, INGEST_GT06_PORT). */
    readonly trackerPorts: { teltonika: number; gt06: number },
    private readonly child: ChildProcess,
  ) {}

  /**
   * `script`: a TypeScript entry point of the bench itself, run with ts-node instead of `dist/apps/<app>`.
   * An empty value in `env` removes that variable from the inherited environment.
   * `asDeployed: false` runs without the deployed services' Node options, as `npm start` does.
   */
  static async start(
    app: string,
    env: Record<string, string>,
    script?: string,
    { asDeployed = true }: { asDeployed?: boolean } = {},
  ): Promise<ServiceProcess> {
    const [port, devicePort] = [await freePort(), await freePort()];
    const trackerPorts = { teltonika: await freePort(), gt06: await freePort() };
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      TS_NODE_TRANSPILE_ONLY: '1',
      LOG_LEVEL: 'warn',
      ...env,
      HTTP_PORT: String(port),
      INGEST_DEVICE_PORT: String(devicePort),
      INGEST_TELTONIKA_PORT: String(trackerPorts.teltonika),
      INGEST_GT06_PORT: String(trackerPorts.gt06),
    };
    for (const [name, value] of Object.entries(childEnv)) if (value === '') delete childEnv[name];
    const child = spawn(
      process.execPath,
      [
        // As deployed (the image, compose and Kubernetes set the same options).
        ...(asDeployed ? serviceNodeOptions.split(' ') : []),
        // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=.data/profiles" to profile the services
        ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
        ...(script ? ['-r', 'ts-node/register'] : []),
        '-r',
        join(repoRoot, 'scripts/runtime-aliases.cjs'),
        script ?? join(repoRoot, `dist/apps/${app}/src/main.js`),
      ],
      {
        cwd: repoRoot,
        env: childEnv,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const service = new ServiceProcess(
      app,
      `http://127.0.0.1:${port}`,
      `http://127.0.0.1:${devicePort}`,
      trackerPorts,
      child,
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${service.baseUrl}/health/ready`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${app} not ready within 120 s`);
      await sleep(200);
    }
    log(`${app} ready (pid ${child.pid})`);
    return service;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Peak resident memory of the process so far (VmHWM), in MB. */
  peakRssMb(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/**
 * Starts a bench's bare server (a TypeScript script beside it that serves the same routes from the
 * services' parts, without the service around them) on `port`, with the services' node options (the
 * script sets their V8 flags too). Its readiness is the caller's to wait for.
 */
export function spawnBareServer(script: string, databaseUrl: string, port: number): ChildProcess {
  return spawn(
    process.execPath,
    [
      ...serviceNodeOptions.split(' '),
      '-r',
      'ts-node/register',
      '-r',
      join(repoRoot, 'scripts/runtime-aliases.cjs'),
      script,
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1', DATABASE_URL: databaseUrl, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** A service schema's tables on the bench's database, for the admin's way in (no migrations run). */
export function benchDataSource(schema: ServiceSchema, url: string, poolSize: number): Promise<DataSource> {
  return new DataSource(
    dataSourceOptions(schema, { url, migrateOnStart: false, poolSize }, 'bench'),
  ).initialize();
}

/** Sorted-sample percentile. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The 99th percentile of unsorted samples, to 0.1; null without samples. */
export const p99 = (values: readonly number[]): number | null =>
  values.length === 0
    ? null
    : round(
        percentile(
          [...values].sort((a, b) => a - b),
          99,
        ),
      );

/** Resident memory of a process in MB, or null when it is gone. */
export function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** A numeric `--name value` flag of the bench command line. */
export function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/**
 * The Kafka client library the services run on: `--kafka-client kafkajs|platformatic`, else KAFKA_CLIENT,
 * else kafkajs (decision 0017). The bench passes it to the services it starts as KAFKA_CLIENT.
 */
export function kafkaClientFlag(flag = 'kafka-client'): 'kafkajs' | 'platformatic' {
  const at = process.argv.indexOf(`--${flag}`);
  const client = at > 0 ? process.argv[at + 1] : (process.env.KAFKA_CLIENT ?? 'kafkajs');
  if (client !== 'kafkajs' && client !== 'platformatic')
    throw new Error(`--${flag} must be kafkajs or platformatic, not ${client}`);
  return client;
}

/** A comma-separated `--name a,b` flag of the bench command line, as a set. */
export function setFlag(name: string, fallback: readonly string[]): Set<string> {
  const at = process.argv.indexOf(`--${name}`);
  return new Set(at > 0 ? process.argv[at + 1].split(',') : fallback);
}

/**
 * How fast this machine is right now. The same code measures up to 2x apart over a day on the
 * project machine (docs/performance.md), so every bench prints this beside its figures: JSON
 * round trips per second of a fixed 50-record page, for `seconds` of one core, and the load average.
 * Call it while the services are idle (before the run and after it).
 */
export function calibrate(seconds = 1): { jsonRoundTripsPerSecond: number; loadAverage1m: number } {
  const page = {
    vehicles: Array.from({ length: 50 }, (_, i) => ({
      id: i,
      imei: `35${String(i).padStart(13, '0')}`,
      lat: 52.1 + i / 1000,
      lon: 13.3,
      speed: 42.5,
      time: new Date(1.7e12 + i).toISOString(),
      attributes: { ignition: true, battery: 88 },
    })),
  };
  const end = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  let roundTrips = 0;
  while (process.hrtime.bigint() < end) {
    JSON.parse(JSON.stringify(page));
    roundTrips++;
  }
  return { jsonRoundTripsPerSecond: Math.round(roundTrips / seconds), loadAverage1m: round(loadavg()[0], 2) };
}

/** The `machine` block of every bench's JSON: its size, Node, and `calibrate()` before and after. */
export function machineFacts(before: ReturnType<typeof calibrate>) {
  return {
    cpus: cpus().length,
    node: process.version,
    // Others' work on the machine shows here (1, 5 and 15 minutes), next to the figures.
    loadAverageAtEnd: loadavg().map((load) => Math.round(load * 100) / 100),
    calibrationBefore: before,
    calibrationAfter: calibrate(),
  };
}
