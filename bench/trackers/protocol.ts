/**
 * What bench/trackers' orchestrator (run.ts) and its load generator (generator.ts, a child process)
 * say to each other over the IPC channel, and the figures both compute the same way.
 */
// Nothing from bench/common/infra here: the generator imports this file, and infra would load the
// platform, kafkajs and pg into it for two helpers.

/** One simulated Teltonika device: its IMEI and the tracker port of the replica it connects to. */
export interface DeviceSpec {
  imei: string;
  /** 1-based, for its place on the map. */
  index: number;
  port: number;
}

export type GeneratorRequest =
  | {
      type: 'connect';
      devices: DeviceSpec[];
      /** Connections (connect + login + first fix) in flight at once. */
      concurrency: number;
      /** Sends one record after the login: the session is trusted (commands go only to such a one). */
      firstFix: boolean;
    }
  /** Every connected device that sent nothing for `seconds` writes the one-byte ping (0 stops). */
  | { type: 'ping'; seconds: number }
  | { type: 'closedLoop'; imeis: string[]; seconds: number; records: number }
  | { type: 'openLoop'; imeis: string[]; recordsPerSecond: number; seconds: number; records: number }
  /** The generator's state, and its event loop's delay since the last `status`. */
  | { type: 'status' }
  /** Closes the named connections (all when absent). */
  | { type: 'disconnect'; imeis?: string[] };

export type Request = GeneratorRequest & { id: number };

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface ConnectResult {
  requested: number;
  /** Logged in (and, with a first fix, acknowledged). */
  connected: number;
  /** The server answered the login with 0x00. */
  refused: number;
  failed: number;
  errors: Record<string, number>;
  seconds: number;
  /** TCP connect to the login's 0x01. */
  loginMs: LatencySummary;
  /** The first fix's write to its acknowledgement. */
  firstFixAckMs: LatencySummary;
}

export interface LoopResult {
  senders: number;
  seconds: number;
  packets: number;
  recordsSent: number;
  recordsAcknowledged: number;
  /** Acknowledgements that named another count than the packet's records. */
  countMismatches: number;
  /** Packets without an acknowledgement (timeout or closed connection); the device is not used again. */
  failed: number;
  errors: Record<string, number>;
  /** Write of the packet to its acknowledgement, ms (the raw samples: the parent merges generators). */
  ackLatencies: number[];
  /** Open loop only: the packet's scheduled time to its acknowledgement (includes waiting behind the one before). */
  scheduleLatencies: number[];
  /** Open loop only: packets written more than 10 ms after their scheduled time. */
  lateSends: number;
  /** Records acknowledged in each second of the loop. */
  perSecond: number[];
  /** The slowest acknowledgement (write → answer, ms) that arrived in each second: where a tail sits in time. */
  slowestPerSecond: number[];
}

export interface GeneratorStatus {
  pid: number;
  open: number;
  /** Connections the server closed since the start. */
  closedByServer: number;
  pingsSent: number;
  openFilesLimit: { soft: number; hard: number };
  rssMb: number;
  /** The generator's event loop delay since the last status: how late its timers and reads ran. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

export type GeneratorMessage =
  | { type: 'ready'; pid: number }
  | { type: 'reply'; id: number; result: unknown }
  | { type: 'failed'; id: number; error: string }
  /** A Codec 12 command reached a device; `at` is the epoch in ms (performance.timeOrigin + now). */
  | { type: 'command'; imei: string; text: string; at: number };

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between the bench's processes. */
export const epochMs = () => performance.timeOrigin + performance.now();

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Sorted-sample percentile, as bench/common/infra's. */
const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round1(percentile(sorted, 50)),
    p90: round1(percentile(sorted, 90)),
    p99: round1(percentile(sorted, 99)),
    max: round1(sorted[sorted.length - 1] ?? 0),
  };
}

/** The bench's IMEIs: 15 digits, apart from the other benches' (35…, 35901…). */
export const imeiOf = (index: number) => `35727${String(index).padStart(10, '0')}`;
