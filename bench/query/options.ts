/** bench/query's command line (see run.ts), its targets and the fleets it seeds. */
import { numberFlag, setFlag } from '../common/infra';

export const SECONDS = numberFlag('seconds', 10);
export const CONCURRENCY = numberFlag('concurrency', 16);
export const WARMUP_SECONDS = numberFlag('warmup', 10);
/** Each side's measured seconds are split into this many slices, the two sides taking turns. */
export const ROUNDS = numberFlag('rounds', 4);
/** Processes per side (query-api replicas, bare servers), requests spread round robin. */
export const REPLICAS = numberFlag('replicas', 1);
export const SCENARIO_NAMES = [
  'last-position',
  'nearest',
  'safety-score',
  'battery-health',
  'safety-score-year',
];
export const SCENARIOS = setFlag('scenarios', SCENARIO_NAMES);
export const YEAR_POSITIONS = numberFlag('year-positions', 500_000);
/** Requests in flight on the year vehicle: 1 measures what one user waits. */
export const YEAR_CONCURRENCY = numberFlag('year-concurrency', 1);
/**
 * Other vehicles whose activity rows are interleaved with the year vehicle's in the heap, as a fleet's
 * would be (year-seeding.ts); 0 leaves the rows where the projection wrote them, contiguous.
 */
export const YEAR_NEIGHBOURS = numberFlag('year-neighbours', 0);
/** Leaves the run's database in place (its URL on stderr), to EXPLAIN what was measured. */
export const KEEP_DATABASE = process.argv.includes('--keep-database');
export const TARGET = {
  /** The original query routes (issue 4). */
  throughputRatio: 0.6,
  p99Ms: 50,
  /** The insight routes (issue 20): the same ratio to the bare server. */
  insightThroughputRatio: 0.6,
  /** The safety score of a vehicle with a year of history, over the whole year. */
  yearP99Ms: 200,
};
/** How long each server may take to answer its first request (projection caught up, listening). */
export const READY_TIMEOUT_MS = 60_000;
export const SMALL_FLEET = { companyId: 1, vehicles: 1_000 };
export const LARGE_FLEET = { companyId: 2, vehicles: 100_000 };
/** The year vehicle has a company of its own, so that it changes no page of the others. */
export const YEAR_FLEET = { companyId: 3, vehicleId: 900_001 };
/** Days of insight rows of each vehicle of the small fleet. */
export const INSIGHT_DAYS = 30;
export const DAY_MS = 86_400_000;
