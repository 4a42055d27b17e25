/** bench/commands' command line (see run.ts) and the fixed shape of its runs. */
import { numberFlag, setFlag } from '../common/infra';

export const DEVICES = numberFlag('devices', 200);
export const REPORT_INTERVAL_MS = numberFlag('report-interval-ms', 1_000);
export const RATE = numberFlag('rate', 20);
export const SECONDS = numberFlag('seconds', 30);
export const WARMUP_SECONDS = numberFlag('warmup', 5);
export const CONCURRENCY = numberFlag('concurrency', 16);
export const THROUGHPUT_SECONDS = numberFlag('throughput-seconds', 10);
export const THROUGHPUT_WARMUP_SECONDS = numberFlag('throughput-warmup', 10);
/** Each side's measured seconds are split into this many slices, the two sides taking turns. */
export const ROUNDS = numberFlag('rounds', 4);
export const PHASES = setFlag('phases', ['latency', 'throughput']);
export const TARGET = { handedP99Ms: 1_500, throughputRatio: 0.6, p99Ms: 50 };

export const LATENCY_COMPANY = 1;
export const THROUGHPUT_COMPANY = 2;
export const THROUGHPUT_VEHICLES = 1_000;
/** Phase 2's vehicles, seeded into command-gateway's projection apart from the registry's ids. */
export const FIRST_THROUGHPUT_VEHICLE = 1_000_001;
/** How long the bench waits for what is still on its way once the commands stopped. */
export const DRAIN_TIMEOUT_MS = 30_000;
export const READY_TIMEOUT_MS = 60_000;
