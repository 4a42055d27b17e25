import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags every service process sets on itself at start, because Node refuses them in NODE_OPTIONS
 * (the options it does accept are `serviceNodeOptions` in @fleet/contracts).
 *
 * `--no-allocation-site-pretenuring`: V8 watches which allocation sites' objects survive a
 * scavenge and starts allocating those sites' objects directly in the old generation. A service
 * under load always has requests in flight when a scavenge runs, so the sites that build rows,
 * dates and records looked long-lived and were pretenured, though each object dies with its
 * request. query-api then promoted ~1.8 MB per scavenge, paused 5–9 ms per scavenge and ran a
 * mark-compact every second. Without pretenuring it promotes 10–45 KB per scavenge and pauses about
 * 1 ms; bench:query's last-position p99 was 34–49 ms in four runs of five, against 49–62 ms before
 * (docs/performance.md).
 */
export const serviceV8Flags = ['--no-allocation-site-pretenuring'] as const;

export function applyServiceV8Flags(): void {
  for (const flag of serviceV8Flags) setFlagsFromString(flag);
}
