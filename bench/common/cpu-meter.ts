/**
 * Where the two cores went during a phase of a bench: CPU time of each process the bench stands on,
 * read from /proc (Linux only; elsewhere the figures are empty). In percent of one core, so the
 * groups of a phase add up to at most 100 × cores (to a tenth of a percent).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** A named set of processes: fixed pids, or a test of a process's name (e.g. every `postgres`). */
export type ProcessGroup = { pids: () => number[] } | { command: string };

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** user + system ticks of one process, or 0 if it is gone. */
function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function pidsNamed(command: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === command;
    } catch {
      return false;
    }
  });
}

export class CpuMeter {
  constructor(private readonly groups: Record<string, ProcessGroup>) {}

  /** Starts measuring; the returned function gives each group's CPU since then. */
  start(): () => Record<string, number> {
    const started = performance.now();
    const before = this.sample();
    return () => {
      const seconds = (performance.now() - started) / 1000;
      const after = this.sample();
      const percent: Record<string, number> = {};
      for (const [name, ticks] of after) {
        // A process that started during the phase counts from 0; one that ended is missing from
        // `after` and its last ticks are lost (connections closed mid-phase: small).
        let used = 0;
        for (const [pid, now] of ticks) used += now - (before.get(name)?.get(pid) ?? 0);
        percent[name] = Math.round((1000 * used) / TICKS_PER_SECOND / seconds) / 10;
      }
      return percent;
    };
  }

  private sample(): Map<string, Map<number, number>> {
    const samples = new Map<string, Map<number, number>>();
    for (const [name, group] of Object.entries(this.groups)) {
      const pids = 'pids' in group ? group.pids() : pidsNamed(group.command);
      samples.set(name, new Map(pids.map((pid) => [pid, ticksOf(pid)])));
    }
    return samples;
  }
}
