/**
 * The orchestrator's side of the load generators (generator.ts): starts them as child processes with
 * enough open files for their sockets, spreads the devices over them (always the same one for a
 * device, which keeps its track), and merges what they answer.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { log, repoRoot, sleep } from '../common/infra';
import { onCleanup } from './lifecycle';
import {
  ConnectResult,
  DeviceSpec,
  GeneratorMessage,
  GeneratorRequest,
  GeneratorStatus,
  LoopResult,
  Request,
  summarize,
} from './protocol';

/**
 * Raises the open-files limit for the command it runs: the soft limit to `$1`, and the hard one too
 * when it is lower (which only root may do); failing that, as far as the hard limit allows. Node raises
 * its soft limit to the hard one at start as well.
 */
const WITH_OPEN_FILES = [
  'want=$1; shift',
  'hard=$(ulimit -Hn)',
  'if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then ulimit -Hn "$want" 2>/dev/null; fi',
  'ulimit -Sn "$want" 2>/dev/null || ulimit -Sn "$(ulimit -Hn)"',
  'exec "$@"',
].join('\n');

class Generator {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private exited?: Error;

  constructor(
    readonly child: ChildProcess,
    onCommand: (message: Extract<GeneratorMessage, { type: 'command' }>) => void,
  ) {
    child.on('message', (message: GeneratorMessage) => {
      if (message.type === 'command') return onCommand(message);
      if (message.type === 'ready') return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === 'reply') waiting?.resolve(message.result);
      else waiting?.reject(new Error(`generator ${child.pid}: ${message.error}`));
    });
    child.once('exit', (code, signal) => {
      this.exited = new Error(`generator ${child.pid} exited (${code ?? signal})`);
      for (const waiting of this.pending.values()) waiting.reject(this.exited);
      this.pending.clear();
    });
  }

  request<T>(request: GeneratorRequest): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as T), reject });
      this.child.send({ ...request, id } satisfies Request);
    });
  }
}

export class Generators {
  private readonly ownerOf = new Map<string, Generator>();

  private constructor(private readonly all: Generator[]) {}

  /**
   * `count` generator processes, each allowed `openFiles` descriptors. `onCommand` hears every Codec 12
   * command a device receives, stamped by the generator at arrival.
   */
  static async start(
    count: number,
    openFiles: number,
    onCommand: (imei: string, text: string, at: number) => void,
  ): Promise<Generators> {
    const all: Generator[] = [];
    for (let i = 0; i < count; i++) {
      const child = spawn(
        'bash',
        [
          '-c',
          WITH_OPEN_FILES,
          'bash',
          String(openFiles),
          process.execPath,
          '-r',
          'ts-node/register',
          '-r',
          join(repoRoot, 'scripts/runtime-aliases.cjs'),
          join(__dirname, 'generator.ts'),
        ],
        {
          cwd: repoRoot,
          env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1' },
          // stdout is the bench's JSON: the generator writes nothing there.
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        },
      );
      onCleanup(`generator ${child.pid}`, async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5_000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) =>
          reject(new Error(`the load generator exited (${code}) before it was ready`)),
        );
      });
      all.push(new Generator(child, (message) => onCommand(message.imei, message.text, message.at)));
    }
    const generators = new Generators(all);
    const limits = (await generators.status()).map((status) => status.openFilesLimit.soft);
    if (limits.some((limit) => limit < openFiles)) {
      throw new Error(
        `a load generator may open only ${Math.min(...limits)} files and ${openFiles} are wanted: raise the ` +
          'hard limit (`ulimit -Hn`, as root) before the run, or spread the devices with --generators',
      );
    }
    log(
      `${count} load generator(s) ready (pids ${generators.pids().join(', ')}), open files ${limits.join(', ')}`,
    );
    return generators;
  }

  pids(): number[] {
    return this.all.map((generator) => generator.child.pid!).filter(Boolean);
  }

  /** Connects the devices, each through the generator that will always hold it. */
  async connect(devices: DeviceSpec[], concurrency: number, firstFix: boolean): Promise<ConnectResult> {
    const shares = this.all.map(() => [] as DeviceSpec[]);
    devices.forEach((device, i) => {
      const owner = this.ownerOf.get(device.imei) ?? this.all[i % this.all.length];
      this.ownerOf.set(device.imei, owner);
      shares[this.all.indexOf(owner)].push(device);
    });
    const perGenerator = Math.max(1, Math.round(concurrency / this.all.length));
    const results = await Promise.all(
      this.all.map((generator, i) =>
        generator.request<ConnectResult>({
          type: 'connect',
          devices: shares[i],
          concurrency: perGenerator,
          firstFix,
        }),
      ),
    );
    const merged = results.reduce((sum, result) => ({
      ...sum,
      requested: sum.requested + result.requested,
      connected: sum.connected + result.connected,
      refused: sum.refused + result.refused,
      failed: sum.failed + result.failed,
      errors: mergeCounts(sum.errors, result.errors),
      seconds: Math.max(sum.seconds, result.seconds),
    }));
    // Percentiles do not merge: the slowest generator's stand for all (one generator by default).
    const slowest = results.reduce((a, b) => (b.loginMs.p99 > a.loginMs.p99 ? b : a));
    return { ...merged, loginMs: slowest.loginMs, firstFixAckMs: slowest.firstFixAckMs };
  }

  async ping(seconds: number): Promise<void> {
    await Promise.all(this.all.map((generator) => generator.request({ type: 'ping', seconds })));
  }

  closedLoop(imeis: string[], seconds: number, records: number): Promise<LoopResult> {
    return this.loop(imeis, (share) => ({ type: 'closedLoop', imeis: share, seconds, records }));
  }

  openLoop(imeis: string[], recordsPerSecond: number, seconds: number, records: number): Promise<LoopResult> {
    return this.loop(imeis, (share) => ({
      type: 'openLoop',
      imeis: share,
      recordsPerSecond: (recordsPerSecond * share.length) / imeis.length,
      seconds,
      records,
    }));
  }

  status(): Promise<GeneratorStatus[]> {
    return Promise.all(this.all.map((generator) => generator.request<GeneratorStatus>({ type: 'status' })));
  }

  async disconnect(imeis?: string[]): Promise<void> {
    await Promise.all(
      this.all.map((generator) =>
        generator.request({
          type: 'disconnect',
          imeis: imeis?.filter((imei) => this.ownerOf.get(imei) === generator),
        }),
      ),
    );
  }

  private async loop(imeis: string[], request: (share: string[]) => GeneratorRequest): Promise<LoopResult> {
    const shares = new Map(this.all.map((generator) => [generator, [] as string[]]));
    for (const imei of imeis) {
      const owner = this.ownerOf.get(imei);
      if (!owner) throw new Error(`device ${imei} is not connected`);
      shares.get(owner)!.push(imei);
    }
    const busy = this.all.filter((generator) => shares.get(generator)!.length > 0);
    const results = await Promise.all(
      busy.map((generator) => generator.request<LoopResult>(request(shares.get(generator)!))),
    );
    return results.reduce((sum, result) => ({
      senders: sum.senders + result.senders,
      seconds: Math.max(sum.seconds, result.seconds),
      packets: sum.packets + result.packets,
      recordsSent: sum.recordsSent + result.recordsSent,
      recordsAcknowledged: sum.recordsAcknowledged + result.recordsAcknowledged,
      countMismatches: sum.countMismatches + result.countMismatches,
      failed: sum.failed + result.failed,
      errors: mergeCounts(sum.errors, result.errors),
      ackLatencies: sum.ackLatencies.concat(result.ackLatencies),
      scheduleLatencies: sum.scheduleLatencies.concat(result.scheduleLatencies),
      lateSends: sum.lateSends + result.lateSends,
      perSecond: Array.from(
        { length: Math.max(sum.perSecond.length, result.perSecond.length) },
        (_, i) => (sum.perSecond[i] ?? 0) + (result.perSecond[i] ?? 0),
      ),
      slowestPerSecond: Array.from(
        { length: Math.max(sum.slowestPerSecond.length, result.slowestPerSecond.length) },
        (_, i) => Math.max(sum.slowestPerSecond[i] ?? 0, result.slowestPerSecond[i] ?? 0),
      ),
    }));
  }
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const merged = { ...a };
  for (const [key, n] of Object.entries(b)) merged[key] = (merged[key] ?? 0) + n;
  return merged;
}

/** The latency figures of a loop, without its raw samples. */
export function loopFigures(result: LoopResult) {
  const { ackLatencies, scheduleLatencies, perSecond, slowestPerSecond, ...counts } = result;
  return {
    ...counts,
    acknowledgedPerSecond: Math.round(result.recordsAcknowledged / result.seconds),
    ackLatencyMs: summarize(ackLatencies),
    ...(scheduleLatencies.length ? { scheduleToAckMs: summarize(scheduleLatencies) } : {}),
    acknowledgedEachSecond: Array.from(perSecond, (n) => n ?? 0),
    slowestAckEachSecondMs: Array.from(slowestPerSecond, (n) => n ?? 0),
  };
}

/**
 * Whether the generators may have held a step back: a Node process near a whole core, or timers and
 * reads running late, sends later than the server would let it.
 */
export function generatorVerdict(cpuPercentOfOneCore: number, statuses: GeneratorStatus[]) {
  const perGenerator = Math.round(cpuPercentOfOneCore / Math.max(1, statuses.length));
  const eventLoopDelayP99Ms = Math.max(0, ...statuses.map((status) => status.eventLoopDelayMs.p99));
  return {
    cpuPercentOfOneCorePerGenerator: perGenerator,
    eventLoopDelayP99Ms,
    mayHaveLimited: perGenerator >= 85 || eventLoopDelayP99Ms >= 50,
  };
}
