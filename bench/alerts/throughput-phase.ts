/**
 * Phase 1 of bench/alerts: a backlog of positions published while alert-engine is stopped, then
 * consumed by it; positions/s from its first commit to its last (its start-up excluded).
 */
import { Topics } from '@fleet/contracts';
import { namespaced } from '@fleet/platform';
import { Admin } from 'kafkajs';
import { BenchRun } from '../common/bench-run';
import { CpuMeter } from '../common/cpu-meter';
import { log, ServiceProcess, sleep } from '../common/infra';
import { countRows } from '../common/tables.queries';
import { BACKLOG, committed, endOffsets, publishPositions, TARGET } from './harness';

/** What the phases of bench/alerts run on. */
export interface AlertsRun {
  bench: BenchRun;
  admin: Admin;
  /** Every service running, in the order they started (the JSON's peakRssMb). */
  all: ServiceProcess[];
}

export const positionsTopicOf = (run: AlertsRun) => namespaced(run.bench, Topics.positions.name);

/** The engine's JIT and its rule sets warmed on 30,000 positions; then it stops, committing. */
async function warmUpAndStop(run: AlertsRun, engine: ServiceProcess, engineGroup: string) {
  const { admin } = run;
  const topic = positionsTopicOf(run);
  await publishPositions(run.bench.producer, topic, 30_000);
  while ((await committed(admin, engineGroup, topic)) < (await endOffsets(admin, topic))) await sleep(200);
  await engine.stop();
  run.all.splice(run.all.indexOf(engine), 1);
}

/** From alert-engine's start, polls its group's commits until it has consumed up to `end`. */
async function consume(run: AlertsRun, engineGroup: string, end: number) {
  const startOffset = await committed(run.admin, engineGroup, positionsTopicOf(run));
  const engine = await ServiceProcess.start('alert-engine', run.bench.env);
  const readyAt = performance.now();
  run.all.push(engine);
  const cpu = new CpuMeter({
    'alert-engine': { pids: () => [engine.pid] },
    kafka: { pids: run.bench.kafka.pids },
    postgres: { command: 'postgres' },
    bench: { pids: () => [process.pid] },
  });
  // From its first commit: the rate of consumption, not of start-up.
  let first: { at: number; offset: number } | undefined;
  let cpuOfPhase = cpu.start();
  for (;;) {
    const offset = await committed(run.admin, engineGroup, positionsTopicOf(run));
    if (!first && offset > startOffset) {
      first = { at: performance.now(), offset };
      cpuOfPhase = cpu.start();
    }
    if (offset >= end) break;
    await sleep(100);
  }
  return { engine, startOffset, readyAt, first: first!, doneAt: performance.now(), cpu: cpuOfPhase() };
}

/** Phase 1, with the engine that ran the warm-up; the engine that consumed the backlog, and its figures. */
export async function throughputPhase(run: AlertsRun, warmEngine: ServiceProcess) {
  const engineGroup = namespaced(run.bench, 'alert-engine');
  await warmUpAndStop(run, warmEngine, engineGroup);

  log(`phase 1: a backlog of ${BACKLOG} positions, then alert-engine consumes it`);
  await publishPositions(run.bench.producer, positionsTopicOf(run), BACKLOG);
  const end = await endOffsets(run.admin, positionsTopicOf(run));
  const recordsBefore = await countRows(run.bench.pool, 'alerts.records');
  const { engine, startOffset, readyAt, first, doneAt, cpu } = await consume(run, engineGroup, end);
  const consumedSeconds = (doneAt - first.at) / 1000;
  const positionsPerSecond = Math.round((end - first.offset) / consumedSeconds);
  const records = (await countRows(run.bench.pool, 'alerts.records')) - recordsBefore;
  log(`${positionsPerSecond} positions/s, ${records} records`);
  return {
    engine,
    end,
    figures: {
      positions: end - first.offset,
      positionsPerSecond,
      // Including the time from ready to the first commit (joining the group, the first fetch, the
      // rule sets' first load): a lower bound.
      fromReadyPositionsPerSecond: Math.round((end - startOffset) / ((doneAt - readyAt) / 1000)),
      records,
      cpuPercentOfOneCore: cpu,
    },
    meetsTarget: positionsPerSecond >= TARGET.positionsPerSecond,
  };
}
