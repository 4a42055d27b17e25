/** bench/webhooks' command line (see run.ts) and the fixed shape of its runs. */
import { numberFlag, setFlag } from '../common/infra';

export const RATE = numberFlag('rate', 2_000);
export const SECONDS = numberFlag('seconds', 30);
export const WARMUP_SECONDS = numberFlag('warmup', 10);
export const DELIVERIES = numberFlag('deliveries', 20_000);
export const FANOUT = numberFlag('fanout', 10);
export const THROUGHPUT_RECEIVERS = numberFlag('throughput-receivers', 1);
export const MIX_RECEIVERS = numberFlag('mix-receivers', 20);
export const MIX_RATE = numberFlag('mix-rate', 25);
export const MIX_SECONDS = numberFlag('mix-seconds', 20);
export const PHASES = setFlag('phases', ['latency', 'throughput', 'mix']);
export const TARGET = { p99AlertToDeliveryMs: 250, deliveriesPerSecond: 1_000 };

export const BATCH = 100;
export const VEHICLES = 1_000;
export const LATENCY_COMPANY = 1;
export const THROUGHPUT_COMPANY = 2;
export const MIX_COMPANY = 3;
/** Configurations the bench announces as alert-engine would (ids far from alert-engine's own). */
export const THROUGHPUT_CONFIGURATION = 900_001;
export const MIX_CONFIGURATION = 900_002;
export const MAX_SPEED_KMH = 100;
