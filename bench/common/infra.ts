/**
 * What the ingest and query benchmarks stand on: the real infrastructure of the distributed mode
 * (Kafka from scripts/kafka.sh, the machine's PostgreSQL), and the services as separate processes
 * from the compiled build. Progress goes to stderr; stdout is left for the JSON result.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { serviceNodeOptions } from '@fleet/contracts';
import { Client } from 'pg';

export const repoRoot = join(__dirname, '../..');

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The bench's own broker (apart from a developer's on 9092 and the tests' on 19092), unless KAFKA_BROKERS is set. */
const BENCH_KAFKA_ENV = {
  KAFKA_PORT: '29092',
  KAFKA_CONTROLLER_PORT: '29093',
  KAFKA_DATA_DIR: join(repoRoot, '.data/kafka-bench'),
};

export function ensureKafka(): { brokers: string; stop(): void } {
  if (process.env.KAFKA_BROKERS) return { brokers: process.env.KAFKA_BROKERS, stop: () => undefined };
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
    stop: () =>
      execFileSync('bash', [join(repoRoot, 'scripts/kafka.sh'), 'stop'], {
        cwd: repoRoot,
        env: { ...process.env, ...BENCH_KAFKA_ENV },
        stdio: 'ignore',
      }),
  };
}

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database for one run, dropped at the end. */
export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fleet_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
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
    private readonly child: ChildProcess,
  ) {}

  /** `script`: a TypeScript entry point of the bench itself, run with ts-node instead of `dist/apps/<app>`. */
  static async start(app: string, env: Record<string, string>, script?: string): Promise<ServiceProcess> {
    const [port, devicePort] = [await freePort(), await freePort()];
    const child = spawn(
      process.execPath,
      [
        // As deployed (the image, compose and Kubernetes set the same options).
        ...serviceNodeOptions.split(' '),
        // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=.data/profiles" to profile the services
        ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
        ...(script ? ['-r', 'ts-node/register'] : []),
        '-r',
        join(repoRoot, 'scripts/runtime-aliases.cjs'),
        script ?? join(repoRoot, `dist/apps/${app}/src/main.js`),
      ],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          TS_NODE_TRANSPILE_ONLY: '1',
          LOG_LEVEL: 'warn',
          ...env,
          HTTP_PORT: String(port),
          INGEST_DEVICE_PORT: String(devicePort),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const service = new ServiceProcess(
      app,
      `http://127.0.0.1:${port}`,
      `http://127.0.0.1:${devicePort}`,
      child,
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${service.baseUrl}/health/ready`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${app} not ready within 60 s`);
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

/** Sorted-sample percentile. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** A numeric `--name value` flag of the bench command line. */
export function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
