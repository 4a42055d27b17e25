/**
 * What every phase of bench/trackers works with: the system under test, the load generators, the
 * settings of the run, and a few probes of the services (memory, live sessions, stored positions).
 */
import { readFileSync } from 'node:fs';
import { CpuMeter } from '../common/cpu-meter';
import { log, round, ServiceProcess, sleep } from '../common/infra';
import { Generators } from './generators';
import { DeviceSpec } from './protocol';
import { Setup } from './setup';
import { PositionCounter } from '../common/tables.queries';

export interface Settings {
  connections: number;
  senders: number;
  recordsPerPacket: number;
  seconds: number;
  warmupSeconds: number;
  /** undefined: half the closed loop's end-to-end rate. */
  openRate?: number;
  openSeconds: number;
  /** Unmeasured open loop at the measured rate first, so that the broker's JIT has compiled its paths. */
  openWarmupSeconds: number;
  holdSeconds: number;
  pingSeconds: number;
  connectConcurrency: number;
  firstFix: boolean;
  commandDevices: number;
  commandRate: number;
  commandSeconds: number;
  commandWarmupSeconds: number;
}

export interface Context {
  setup: Setup;
  generators: Generators;
  settings: Settings;
  /** Records acknowledged since the start: what query.positions must eventually hold. */
  acknowledged: number;
  /** Devices connected now through the ingest replica of the connections and throughput phases. */
  connected: Set<string>;
  /** Receives each Codec 12 command a device got (replaced by the commands phase). */
  onCommand: (imei: string, text: string, at: number) => void;
}

export const cpuMeter = (ctx: Context) => new CpuMeter(ctx.setup.cpuGroups(() => ctx.generators.pids()));

/** Resident memory of a process now (VmRSS), MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

/** Peak resident memory (VmHWM) of every service running, MB; a second replica of an app is `<app>-2`. */
export function peakRss(ctx: Context): Record<string, number> {
  const peaks: Record<string, number> = {};
  for (const service of ctx.setup.services()) {
    let name = service.app;
    for (let n = 2; name in peaks; n++) name = `${service.app}-${n}`;
    peaks[name] = service.peakRssMb();
  }
  return peaks;
}

/** What a service says of itself on /metrics: its heap and its live tracker sessions. */
export async function selfReport(service: ServiceProcess) {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  /** A sample's value; every sample carries the `service` label, and the ones asked for here `labels` too. */
  const value = (name: string, labels = '', absent = NaN) => {
    for (const line of text.split('\n')) {
      if (line.startsWith(`${name}{`) && line.includes(labels))
        return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return absent;
  };
  const mb = (bytes: number) => round(bytes / 2 ** 20);
  return {
    rssMb: rssMb(service.pid),
    heapUsedMb: mb(value('nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(value('nodejs_heap_size_total_bytes')),
    externalMb: mb(value('nodejs_external_memory_bytes')),
    // The gauge appears with the first session.
    teltonikaSessions: value('fleet_device_sessions', 'protocol="teltonika"', 0),
  };
}

/** The first `count` vehicles as devices of one replica's Teltonika port. */
export function devicesOn(ctx: Context, count: number, replica: ServiceProcess): DeviceSpec[] {
  return ctx.setup.vehicles
    .slice(0, count)
    .map((vehicle) => ({ imei: vehicle.imei, index: vehicle.index, port: replica.trackerPorts.teltonika }));
}

/** Connects devices to the ingest replica (with their first fix), counting what gets acknowledged. */
export async function connectDevices(ctx: Context, devices: DeviceSpec[]) {
  const result = await ctx.generators.connect(
    devices,
    ctx.settings.connectConcurrency,
    ctx.settings.firstFix,
  );
  if (ctx.settings.firstFix) ctx.acknowledged += result.connected;
  return result;
}

const counters = new WeakMap<Context, PositionCounter>();

/** Rows in query.positions (PositionCounter: counts the new rows since its last call, not the table). */
export function storedPositions(ctx: Context): Promise<number> {
  let counter = counters.get(ctx);
  if (!counter) counters.set(ctx, (counter = new PositionCounter(ctx.setup.pool)));
  return counter.count();
}

/**
 * Waits until query.positions holds `expected` rows; the time is counted from `since`. Gives up when
 * the count stops growing for 30 s (refused or lost records) or after 10 minutes.
 */
export async function waitStored(ctx: Context, expected: number, since: number) {
  let last = -1;
  let lastChange = performance.now();
  for (;;) {
    const stored = await storedPositions(ctx);
    const now = performance.now();
    if (stored >= expected) return { stored, complete: true, seconds: (now - since) / 1000 };
    if (stored !== last) [last, lastChange] = [stored, now];
    if (now - lastChange > 30_000 || now - since > 600_000) {
      log(`only ${stored} of ${expected} positions stored; giving up waiting`);
      return { stored, complete: false, seconds: (now - since) / 1000 };
    }
    await sleep(250);
  }
}
