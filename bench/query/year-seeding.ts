/**
 * Seeds the `safety-score-year` vehicle of bench/query through the real projection: its year of
 * reports (year-history.ts) goes onto the run's positions topic as telemetry-ingest publishes them
 * (keyed by vehicle, validated by the topic's codec), and the running query-api consumes and projects
 * them with everything else it does for a position (history, last position, trips, insights). The
 * bench then waits until the vehicle's last position is the year's last fix and history holds every
 * fix. Nothing is written into the insight tables by the bench.
 */
import { PositionReportedV1, Topics } from '@fleet/contracts';
import { KafkaEventPublisher } from '@fleet/platform-transport';
import { Pool } from 'pg';
import { log, round, sleep } from '../common/infra';
import {
  createPositionsPartition,
  insertVehicle,
  insightRowsOf,
  interleaveActivity,
  lastFixTime,
  storedPositions,
  vacuumInsightTables,
} from './year-seeding.queries';
import { yearOfPositions, YearHistoryFacts } from './year-history';

const DAY_MS = 86_400_000;
/** Events per send to the broker. */
const SEND = 2_000;
/** How long the projection may take for the whole year before the bench gives up. */
const PROJECTION_TIMEOUT_MS = 45 * 60_000;

export interface YearVehicle {
  vehicleId: number;
  companyId: number;
  /** Epoch ms of the first and last fix. */
  firstFixMs: number;
  lastFixMs: number;
  facts: YearHistoryFacts;
  seeding: {
    publishSeconds: number;
    /** From the first send until history holds every fix and the last position is the last fix. */
    projectedSeconds: number;
    positionsPerSecond: number;
  };
  /** What the projection wrote for the vehicle. */
  rows: {
    positions: number;
    vehicleActivity: number;
    drivingEvents: number;
    trips: number;
    vehicleActivityHeapPages: number;
  };
}

/** The local midnight (Europe/Berlin, the bench tokens' zone) that starts the UTC day of `ms`, near enough. */
function berlinMidnightBefore(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS - 3_600_000;
}

/**
 * The monthly partitions of position history from `fromMs`'s month up to last month: what query-api's
 * hourly maintenance would have created over a year of running (at start it creates only last month
 * onwards, and a year of fixes would otherwise all land in the default partition).
 */
async function createPastPartitions(pool: Pool, fromMs: number): Promise<void> {
  const now = new Date();
  for (
    let month = new Date(Date.UTC(new Date(fromMs).getUTCFullYear(), new Date(fromMs).getUTCMonth(), 1));
    month < new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))
  ) {
    const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const name = `positions_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
    await createPositionsPartition(pool, name, month, end);
  }
}

/**
 * Lays the vehicle's activity rows out in the heap as a fleet's projection would: every quarter hour
 * of a fleet is written together, so one vehicle's year of quarters lies on as many pages as it has
 * rows once the fleet has more vehicles than a page holds rows (about 65). The vehicle's rows, as the
 * projection computed them, are moved to the end of the table, each followed by copies of it for
 * `neighbours` other vehicles (ids after the bench's, in no company), in quarter order.
 */
async function interleaveNeighbours(pool: Pool, vehicleId: number, neighbours: number): Promise<void> {
  log(`safety-score-year: interleaving its activity rows with ${neighbours} neighbours'`);
  await interleaveActivity(pool, vehicleId, neighbours);
}

export async function seedYearVehicle(
  pool: Pool,
  publisher: KafkaEventPublisher,
  vehicle: { vehicleId: number; companyId: number; positions: number; neighbours: number },
): Promise<YearVehicle> {
  const { vehicleId, companyId, positions } = vehicle;
  const imei = `86${String(vehicleId).padStart(13, '0')}`;
  // A dry run finds how many days the positions cover, so that the real year ends before today.
  const dry: YearHistoryFacts = { positions: 0, days: 0, trips: 0, harshManoeuvres: 0, speedingFixes: 0 };
  for (const _ of yearOfPositions({ vehicleId, imei, count: positions, startMs: 0, facts: dry }));
  const startMs = berlinMidnightBefore(Date.now()) - dry.days * DAY_MS;

  await insertVehicle(pool, { vehicleId, name: `Year ${vehicleId}`, imei, companyId });
  await createPastPartitions(pool, startMs);

  log(`safety-score-year: publishing ${positions} positions of vehicle ${vehicleId} (${dry.days} days)`);
  const facts: YearHistoryFacts = { positions: 0, days: 0, trips: 0, harshManoeuvres: 0, speedingFixes: 0 };
  const started = performance.now();
  let firstFixMs = 0;
  let lastFixMs = 0;
  let batch: PositionReportedV1[] = [];
  const send = async () => {
    await publisher.publish(
      Topics.positions,
      batch.map((payload) => ({ key: String(vehicleId), payload })),
    );
    batch = [];
  };
  for (const event of yearOfPositions({ vehicleId, imei, count: positions, startMs, facts })) {
    lastFixMs = Date.parse(event.fixTime);
    firstFixMs ||= lastFixMs;
    batch.push(event);
    if (batch.length === SEND) await send();
  }
  if (batch.length) await send();
  const publishSeconds = (performance.now() - started) / 1000;
  log(`safety-score-year: published in ${round(publishSeconds)} s; waiting for the projection`);

  const deadline = Date.now() + PROJECTION_TIMEOUT_MS;
  let lastLog = 0;
  for (;;) {
    const fixTime = await lastFixTime(pool, vehicleId);
    if (fixTime && fixTime.getTime() === lastFixMs) break;
    if (Date.now() > deadline) throw new Error('the year was not projected in time');
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      const projectedTo = fixTime?.toISOString() ?? 'nothing yet';
      log(
        `safety-score-year: projected up to ${projectedTo} after ${round((performance.now() - started) / 1000)} s`,
      );
    }
    await sleep(500);
  }
  const projectedSeconds = (performance.now() - started) / 1000;
  const stored = await storedPositions(pool, vehicleId);
  if (stored !== positions) throw new Error(`history holds ${stored} of the ${positions} positions`);
  if (vehicle.neighbours > 0) await interleaveNeighbours(pool, vehicleId, vehicle.neighbours);
  // A year-old table has been vacuumed and analysed by autovacuum many times over; here it is done at once.
  await vacuumInsightTables(pool);
  const rows = {
    positions: stored,
    ...(await insightRowsOf(pool, vehicleId)),
  };
  log(`safety-score-year: projected in ${round(projectedSeconds)} s: ${JSON.stringify(rows)}`);
  return {
    vehicleId,
    companyId,
    firstFixMs,
    lastFixMs,
    facts,
    seeding: {
      publishSeconds: round(publishSeconds, 1),
      projectedSeconds: round(projectedSeconds, 1),
      positionsPerSecond: Math.round(positions / projectedSeconds),
    },
    rows,
  };
}
