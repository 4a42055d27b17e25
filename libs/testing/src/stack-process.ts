import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo-root';

/** `<data dir>/stack.json`, as `npm run stack` keeps it (apps/stack/src/main.ts). */
export interface StackState {
  pid: number;
  entry?: { kind: 'nginx' | 'proxy'; url: string };
  trackers: string;
  kafkaBrokers: string;
  processes: {
    name: string;
    pid?: number;
    url?: string;
    log: string;
    restarts: number;
    totalRestarts?: number;
  }[];
  demo?: string;
}

export interface StackEvent {
  event: string;
  [key: string]: unknown;
}

/**
 * `npm run stack` as a user runs it, in its own process group so that {@link interrupt} is the Ctrl-C
 * of a terminal: SIGINT to npm, the stack and every process it started.
 */
export class StackProcess {
  readonly events: StackEvent[] = [];
  private stderr = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly dataDir: string,
  ) {
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        try {
          this.events.push(JSON.parse(line) as StackEvent);
        } catch {
          // npm's own lines.
        }
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-20_000);
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts `npm run stack -- <args>` and resolves once it reports `ready` (rejects if it exits first). */
  static async start(args: string[], env: Record<string, string>, dataDir: string, timeoutMs = 300_000) {
    const child = spawn('npm', ['run', '--silent', 'stack', '--', '--data-dir', dataDir, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stack = new StackProcess(child, dataDir);
    // Nothing of the stack outlives the test process, whatever ends it (a timeout, an error).
    process.once('exit', () => stack.kill());
    const deadline = Date.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void stack.exited.then((code) => (exitCode = code));
    while (!stack.events.some((event) => event.event === 'ready')) {
      if (exitCode !== undefined) throw new Error(`npm run stack exited with ${exitCode}:\n${stack.stderr}`);
      if (Date.now() > deadline) {
        await stack.interrupt();
        throw new Error(`npm run stack not ready within ${timeoutMs / 1000} s:\n${stack.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return stack;
  }

  get output(): string {
    return this.stderr;
  }

  state(): StackState {
    return JSON.parse(readFileSync(join(this.dataDir, 'stack.json'), 'utf8')) as StackState;
  }

  demoCredentials<T>(): T {
    const file = join(this.dataDir, 'demo-credentials.json');
    if (!existsSync(file)) throw new Error('the stack seeded no demo tenant');
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  }

  /**
   * Ctrl-C: SIGINT to the whole process group (npm ends at once, as in a terminal); resolves once the
   * stack's own process has ended, or rejects after `timeoutMs`.
   */
  async interrupt(timeoutMs = 90_000): Promise<void> {
    const stackPid = existsSync(join(this.dataDir, 'stack.json')) ? this.state().pid : undefined;
    if (this.child.pid) {
      try {
        process.kill(-this.child.pid, 'SIGINT');
      } catch {
        // Already gone.
      }
    }
    await this.exited;
    const deadline = Date.now() + timeoutMs;
    while (stackPid !== undefined && processAlive(stackPid)) {
      if (Date.now() > deadline)
        throw new Error(`the stack (pid ${stackPid}) still runs ${timeoutMs / 1000} s after Ctrl-C`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * SIGKILL to everything of the group that is left, and to the stack's broker, which runs in a
   * session of its own (a test's last resort, also when the test process exits).
   */
  kill(): void {
    const pids = [
      this.child.pid ? -this.child.pid : undefined,
      pidIn(join(this.dataDir, 'kafka', 'kafka.pid')),
    ];
    for (const pid of pids) {
      if (pid === undefined) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

function pidIn(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid still exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
