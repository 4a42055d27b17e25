import { setFlagsFromString } from 'node:v8';

/**
 * Node options every service runs with, in the image, the compose stack, the Kubernetes manifests and
 * the benches (docs/performance.md has the measurements behind each):
 * - A capped old generation, so that V8 collects before the heap grows far beyond the live data.
 * - A 32 MB young-generation semi-space (V8's default is 16 MB): a batch of positions waits for the
 *   broker's acknowledgement long enough to outlive two scavenges at 16 MB and be promoted, and
 *   old-generation marking then took much of telemetry-ingest's CPU.
 */
export const serviceNodeOptions = '--max-old-space-size=256 --max-semi-space-size=32';

/**
 * V8 flags every service process sets on itself at start, because Node refuses them in NODE_OPTIONS
 * (the options it does accept are `serviceNodeOptions` above).
 *
 * `--no-allocation-site-pretenuring`: V8 watches which allocation sites' objects survive a
 * scavenge and starts allocating those sites' objects directly in the old generation. A service
 * under load always has requests in flight when a scavenge runs, so the sites that build rows,
 * dates and records looked long-lived and were pretenured, though each object dies with its
 * request, and query-api promoted and paused far more per scavenge (docs/performance.md).
 */
export const serviceV8Flags = ['--no-allocation-site-pretenuring'] as const;

export function applyServiceV8Flags(): void {
  for (const flag of serviceV8Flags) setFlagsFromString(flag);
}
