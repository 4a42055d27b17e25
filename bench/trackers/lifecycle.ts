/**
 * That bench/trackers stops by itself and leaves nothing behind: every process, database, topic and
 * data directory it creates is registered here with how to undo it, and undone in reverse order at
 * the end, on a failure, on Ctrl-C (SIGINT) or SIGTERM, and when the run's time limit is reached.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { log } from '../common/infra';

const undo: { what: string; run: () => unknown }[] = [];
let cleaning: Promise<void> | undefined;
let stopReason: string | undefined;

/** Why the run is being stopped from outside (a signal, the time limit), if it is. */
export const stoppedBecause = () => stopReason;

/** Registers how to undo something the bench just made; undone last-made first. */
export function onCleanup(what: string, run: () => unknown): void {
  undo.push({ what, run });
}

/** Undoes everything registered, once (later calls wait for the first). */
export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (let step = undo.pop(); step; step = undo.pop()) {
      try {
        await step.run();
      } catch (error) {
        log(`cleanup: ${step.what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    stopOwnChildren();
  })();
  return cleaning;
}

/**
 * A service that did not get ready in time is left running by ServiceProcess.start: whatever this
 * process started and is still running at the end is ended by its pid.
 */
function stopOwnChildren(): void {
  for (const pid of childPids(process.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
      log(`cleanup: ended leftover child process ${pid}`);
    } catch {
      // already gone
    }
  }
}

function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // A zombie has ended already and only waits to be reaped.
      if (Number(ppid) === parent && state !== 'Z') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Cleans up and exits on Ctrl-C, SIGTERM, or after `maxMinutes`; a second signal exits at once. */
export function guardRun(maxMinutes: number): void {
  let signalled = false;
  const stop = (reason: string, code: number) => {
    if (signalled) process.exit(code);
    signalled = true;
    stopReason = reason;
    log(`${reason}: cleaning up`);
    void cleanUp().then(() => process.exit(code));
  };
  process.on('SIGINT', () => stop('interrupted', 130));
  process.on('SIGTERM', () => stop('terminated', 143));
  setTimeout(
    () => stop(`time limit of ${maxMinutes} min reached (--max-minutes)`, 1),
    maxMinutes * 60_000,
  ).unref();
}

/** A process's open-files limit, from /proc. */
export function openFilesLimit(pid: number | 'self'): { soft: number; hard: number } {
  const line = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(
    readFileSync(`/proc/${pid}/limits`, 'utf8'),
  );
  const value = (text: string | undefined) => (text === 'unlimited' || !text ? Infinity : Number(text));
  return { soft: value(line?.[1]), hard: value(line?.[2]) };
}

/**
 * Raises a running service's open-files limit to `wanted` with prlimit(1) when it is lower (Node raises
 * its soft limit to the hard one at start; above the hard one needs root). Returns the limit it has.
 */
export function ensureOpenFiles(pid: number, wanted: number, what: string): { soft: number; hard: number } {
  const before = openFilesLimit(pid);
  if (before.soft >= wanted) return before;
  try {
    execFileSync('prlimit', [`--pid=${pid}`, `--nofile=${wanted}:${Math.max(wanted, before.hard)}`], {
      stdio: 'ignore',
    });
  } catch {
    // not allowed (not root) or no prlimit: reported below
  }
  const after = openFilesLimit(pid);
  if (after.soft < wanted) {
    throw new Error(
      `${what} may open only ${after.soft} files and ${wanted} are wanted: raise the hard limit ` +
        '(`ulimit -Hn`, as root) before the run, or run fewer connections',
    );
  }
  log(`${what}: open-files limit raised from ${before.soft} to ${after.soft}`);
  return after;
}
