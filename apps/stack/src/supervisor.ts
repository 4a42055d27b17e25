import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, WriteStream } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** How to start one process of the stack, and how to tell it is ready. */
export interface ProcessSpec {
  name: string;
  /** Arguments to `node` (the script and its options). */
  args: string[];
  env: Record<string, string>;
  /** Answers 200 once the process serves; undefined for processes without a probe (the simulator). */
  readyUrl?: string;
  logFile: string;
}

/** Restarted after a crash as a Kubernetes pod would be: at once, then with a growing delay, at most 30 s. */
const RESTART_DELAYS_MS = [0, 1_000, 2_000, 5_000, 10_000, 30_000];
/** A process that ran this long before it ended counts as healthy again: its next restart is immediate. */
const HEALTHY_RUN_MS = 60_000;

/**
 * One supervised child process: its output appended to its log file, restarted whenever it ends without
 * being asked to (a crash, a SIGKILL from a fault test, a clean exit after SIGTERM from outside), like
 * an orchestrator keeps the declared replicas running.
 */
export class SupervisedProcess {
  private child?: ChildProcess;
  private readonly log: WriteStream;
  private stopping = false;
  private restarts = 0;
  private totalRestarts = 0;
  private startedAt = 0;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: ProcessSpec,
    private readonly report: (event: Record<string, unknown>) => void,
  ) {
    this.log = createWriteStream(spec.logFile, { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Restarts in the current crash streak (what the backoff counts). */
  get restartCount(): number {
    return this.restarts;
  }

  /** Restarts since the stack started. */
  get totalRestartCount(): number {
    return this.totalRestarts;
  }

  start(): void {
    this.startedAt = Date.now();
    const child = spawn(process.execPath, this.spec.args, {
      env: { PATH: process.env.PATH ?? '', ...this.spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    if (this.totalRestarts > 0) this.report({ process: this.spec.name, event: 'restarted', pid: child.pid });
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        resolve();
        if (!this.stopping) void this.restartAfter(code, signal);
      }),
    );
  }

  private async restartAfter(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    if (Date.now() - this.startedAt > HEALTHY_RUN_MS) this.restarts = 0;
    const wait = RESTART_DELAYS_MS[Math.min(this.restarts, RESTART_DELAYS_MS.length - 1)];
    this.restarts += 1;
    this.totalRestarts += 1;
    this.report({ process: this.spec.name, event: 'exited', code, signal, restartInMs: wait });
    await delay(wait);
    if (!this.stopping) this.start();
  }

  /** Resolves when the readiness URL answers 200; rejects after `timeoutMs`, naming the log file. */
  async waitUntilReady(timeoutMs: number): Promise<void> {
    if (!this.spec.readyUrl) return;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const response = await fetch(this.spec.readyUrl, { signal: AbortSignal.timeout(2_000) });
        if (response.status === 200) return;
      } catch {
        // Not listening yet.
      }
      await delay(250);
    }
    throw new Error(`${this.spec.name} not ready within ${timeoutMs / 1000} s: see ${this.spec.logFile}`);
  }

  /**
   * No restart from now on. Called for every process as soon as the stack stops: a Ctrl-C in a terminal
   * reaches the services too (one process group), and they must not be restarted as they end.
   */
  markStopping(): void {
    this.stopping = true;
  }

  /** SIGTERM, then SIGKILL if it is still running after `graceMs`. Never restarted afterwards. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    await new Promise<void>((resolve) => this.log.end(resolve));
  }
}

export const logFileOf = (dataDir: string, name: string) => join(dataDir, 'logs', `${name}.log`);
