import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';
import { repoRoot } from './repo-root';
import { waitFor } from './wait-for';

const MAX_LOG_LINES = 400;

/**
 * One app of `apps/` running as its own OS process from the compiled output (the Jest global setup
 * builds it), the way it runs in production. Used by end-to-end tests that kill and restart services.
 */
export class AppProcess {
  /** Every app this test process started that has not exited: what {@link killAll} ends. */
  private static readonly running = new Set<AppProcess>();
  /** The last MAX_LOG_LINES lines, for failure messages. */
  private readonly output: string[] = [];
  private readonly lineListeners = new Set<(line: string) => void>();
  private exited: Promise<number | null>;

  private constructor(
    readonly app: string,
    readonly baseUrl: string,
    private readonly child: ChildProcess,
    /** The OsmAnd port of apps that open one. */
    readonly deviceUrl: string,
    /** The binary tracker ports of apps that open them (Teltonika TCP and UDP, GT06 TCP). */
    readonly trackerPorts: { teltonika: number; gt06: number },
  ) {
    // Whole lines only: a chunk may end inside a line, whose rest comes with the next chunk.
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let partial = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop()!;
        for (const line of lines) this.keep(line);
      });
      stream?.on('end', () => this.keep(partial));
    };
    collect(child.stdout);
    collect(child.stderr);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    AppProcess.running.add(this);
    void this.exited.then(() => AppProcess.running.delete(this));
  }

  /**
   * Ends (SIGKILL) every app still running, after each test file (libs/testing/src/jest/
   * kill-leftover-apps.ts): a file whose setup failed half-way, e.g. one of three apps started
   * together not getting ready, would otherwise leave the others running into the next files.
   */
  static async killAll(): Promise<void> {
    await Promise.all([...AppProcess.running].map((app) => app.kill('SIGKILL')));
  }

  /** Starts `apps/<app>` on a free port with `env` on top of this process's environment, and waits until ready. */
  static async start(app: string, env: Record<string, string>, readyTimeoutMs = 60_000): Promise<AppProcess> {
    const port = env.HTTP_PORT ? Number(env.HTTP_PORT) : await freePort();
    // Apps with a tracker-facing port (telemetry-ingest, fleet) get a free one too, so tests never collide on 5055.
    const devicePort = env.INGEST_DEVICE_PORT ? Number(env.INGEST_DEVICE_PORT) : await freePort();
    const trackerPorts = {
      teltonika: env.INGEST_TELTONIKA_PORT ? Number(env.INGEST_TELTONIKA_PORT) : await freePort(),
      gt06: env.INGEST_GT06_PORT ? Number(env.INGEST_GT06_PORT) : await freePort(),
    };
    const child = spawn(
      process.execPath,
      ['-r', join(repoRoot, 'scripts/runtime-aliases.cjs'), join(repoRoot, `dist/apps/${app}/src/main.js`)],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          LOG_LEVEL: 'warn',
          // As in TestContext: other features' tests move vehicles faster than the glitch rule allows.
          INGEST_MAX_PLAUSIBLE_SPEED_KMH: '2000',
          ...env,
          HTTP_PORT: String(port),
          INGEST_DEVICE_PORT: String(devicePort),
          INGEST_TELTONIKA_PORT: String(trackerPorts.teltonika),
          INGEST_GT06_PORT: String(trackerPorts.gt06),
        },
        stdio: 'pipe',
      },
    );
    const started = new AppProcess(
      app,
      `http://127.0.0.1:${port}`,
      child,
      `http://127.0.0.1:${devicePort}`,
      trackerPorts,
    );
    try {
      await started.waitUntilReady(readyTimeoutMs);
    } catch (error) {
      await started.kill('SIGKILL');
      throw error;
    }
    return started;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  logs(): string {
    return this.output.join('\n');
  }

  /**
   * Calls `listener` with every line the app writes from now on, also those that a busy app pushes
   * out of the kept tail ({@link logs}); returns what stops it.
   */
  onLine(listener: (line: string) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  private keep(line: string): void {
    if (!line) return;
    this.output.push(line);
    if (this.output.length > MAX_LOG_LINES) this.output.splice(0, this.output.length - MAX_LOG_LINES);
    for (const listener of this.lineListeners) listener(line);
  }

  async waitUntilReady(timeoutMs: number): Promise<void> {
    let exitCode: number | null | undefined;
    void this.exited.then((code) => (exitCode = code));
    try {
      await waitFor(
        async () => {
          if (exitCode !== undefined) throw new Error(`${this.app} exited with code ${exitCode}`);
          const response = await fetch(`${this.baseUrl}/health/ready`);
          return response.status === 200;
        },
        { timeoutMs, intervalMs: 200, description: `${this.app} to be ready` },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- ${this.app} output ---\n${this.logs()}`);
    }
  }

  /** Sends `signal` and waits for the process to end. SIGKILL is a crash: no cleanup runs. */
  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
