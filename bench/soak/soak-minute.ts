/** One minute of a soak run, as run.ts measures it and plot.ts draws it. */
export interface SoakMinute {
  minute: number;
  positionsPerSecond: number;
  alertsPerSecond: number;
  webhooksPerSecond: number;
  batchP99Ms: number | null;
  readP99Ms: number | null;
  /** Non-2xx answers to the load in the minute. */
  failures: number;
  rssMb: Record<string, number | null>;
  eventLoopLagP99Ms: Record<string, number | null>;
  /** Messages behind, summed over a service's groups and partitions (its first replica's view). */
  consumerLag: Record<string, number | null>;
}
