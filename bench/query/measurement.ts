/**
 * How bench/query measures: each route warmed up, then the service and its bare server in
 * alternating slices with the CPU of each slice, and the comparison of the two sides.
 */
import { CpuMeter } from '../common/cpu-meter';
import { closedLoop, LoadRecorder, LoadResult } from '../common/http-load';
import { log, round } from '../common/infra';
import { ROUNDS, SECONDS, WARMUP_SECONDS } from './options';
import { buildScenarios, latencyOf } from './scenarios';

/** The results of every measured scenario, by name, and the functions that measure and compare them. */
export function measurements(cpu: CpuMeter, built: ReturnType<typeof buildScenarios>) {
  const { scenarios, responseBytes, samples, setSampling } = built;
  const results: Record<string, LoadResult> = {};
  const cpuOf: Record<string, Record<string, number>> = {};
  /**
   * Warms up each of `names` unmeasured, then measures them in `ROUNDS` alternating slices of
   * `SECONDS / ROUNDS` each (the order reversed every other round), at `concurrency`.
   */
  const measure = async (names: string[], concurrency: number) => {
    for (const name of names) {
      log(`${name}: ${WARMUP_SECONDS} s of warm-up at concurrency ${concurrency}`);
      await closedLoop(concurrency, WARMUP_SECONDS * 1000, scenarios[name].run);
    }
    // The sides take turns in short slices, each first in every other round, so that a change in
    // the machine's speed during the run (docs/performance.md) falls on all alike.
    log(
      `${names.join(', ')}: ${SECONDS} s each at concurrency ${concurrency}, in ${ROUNDS} alternating rounds`,
    );
    const recorders = new Map(names.map((name) => [name, new LoadRecorder()]));
    const cpuSeconds = new Map(names.map((name) => [name, {} as Record<string, number>]));
    setSampling(true);
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const started = performance.now();
        const cpuOfSlice = cpu.start();
        await recorders.get(name)!.run(concurrency, (SECONDS * 1000) / ROUNDS, scenarios[name].run);
        const seconds = (performance.now() - started) / 1000;
        const sum = cpuSeconds.get(name)!;
        for (const [group, percent] of Object.entries(cpuOfSlice())) {
          sum[group] = (sum[group] ?? 0) + percent * seconds;
        }
      }
    }
    setSampling(false);
    for (const name of names) {
      results[name] = recorders.get(name)!.result();
      cpuOf[name] = Object.fromEntries(
        Object.entries(cpuSeconds.get(name)!).map(([group, weighted]) => [
          group,
          Math.round(weighted / results[name].seconds),
        ]),
      );
    }
  };
  const compare = (name: string, ratioTarget: number, p99Ms?: number) => {
    const measured = results[name];
    const baseline = results[`${name}Bare`];
    // From the counts: perSecond is rounded to whole requests, too coarse for a slow route's few a second.
    const ratio = round(measured.requests / measured.seconds / (baseline.requests / baseline.seconds), 2);
    return {
      service: {
        perSecond: measured.perSecond,
        latencyMs: measured.latencyMs,
        failed: measured.failed,
        statuses: measured.statuses,
        responseBytes: responseBytes[name],
        cpuPercentOfOneCore: cpuOf[name],
      },
      bare: {
        perSecond: baseline.perSecond,
        latencyMs: baseline.latencyMs,
        failed: baseline.failed,
        statuses: baseline.statuses,
        responseBytes: responseBytes[`${name}Bare`],
        cpuPercentOfOneCore: cpuOf[`${name}Bare`],
      },
      throughputRatio: ratio,
      meetsTargets:
        ratio >= ratioTarget &&
        (p99Ms === undefined || measured.latencyMs.p99 <= p99Ms) &&
        measured.failed === 0,
    };
  };
  const yearSide = (name: string) => ({
    latencyMs: latencyOf(samples[name] ?? []),
    perSecond: results[name].perSecond,
    failed: results[name].failed,
    statuses: results[name].statuses,
    responseBytes: responseBytes[name],
    cpuPercentOfOneCore: cpuOf[name],
  });
  return { results, measure, compare, yearSide };
}
