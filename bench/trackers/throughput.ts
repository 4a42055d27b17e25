/**
 * Phase `throughput`: `--senders` of the connected devices (the others keep pinging) send Codec 8E
 * packets of `--records` records.
 *
 *   1. closed loop: each sender sends its next packet as soon as the last was acknowledged, `--warmup`
 *      seconds unmeasured, then `--seconds` measured. Acknowledged records/s, and stored end to end:
 *      the records acknowledged in the step divided by the time from the step's start until
 *      query.positions (query-api's history) holds them all, polled after the step (PositionCounter:
 *      the rows added since the last poll, not count(*) of the whole table);
 *   2. open loop at `--open-rate` records/s (default: half the closed loop's end-to-end rate),
 *      `--open-warmup` seconds unmeasured, then `--open-seconds` measured: acknowledgement latency
 *      from the packet's write, and from its schedule.
 *
 * An acknowledgement is sent only once the records are durably held (Kafka acked, or the embedded
 * in-process log committed), so the acknowledged rate is the ingest path's and the stored rate the
 * whole pipeline's.
 */
import { log, round } from '../common/infra';
import { Context, cpuMeter, peakRss, storedPositions, waitStored } from './context';
import { generatorVerdict, loopFigures } from './generators';

export const THROUGHPUT_TARGET = {
  storedPerSecond: { distributed: 20_000, embedded: 8_000 },
  openLoopAckP99Ms: 100,
};

/** Waits until everything acknowledged so far is stored, before a measured step starts. */
async function allStored(ctx: Context): Promise<void> {
  const settled = await waitStored(ctx, ctx.acknowledged, performance.now());
  if (!settled.complete)
    throw new Error(`only ${settled.stored} of ${ctx.acknowledged} positions were stored`);
}

export async function throughputPhase(ctx: Context) {
  const { setup, generators, settings } = ctx;
  const senders = setup.vehicles.slice(0, settings.senders).map((vehicle) => vehicle.imei);
  const missing = senders.filter((imei) => !ctx.connected.has(imei));
  if (missing.length) throw new Error(`${missing.length} senders are not connected`);
  const records = settings.recordsPerPacket;

  if (settings.warmupSeconds > 0) {
    log(`throughput: warm-up, ${senders.length} senders in a closed loop for ${settings.warmupSeconds} s`);
    const warm = await generators.closedLoop(senders, settings.warmupSeconds, records);
    ctx.acknowledged += warm.recordsAcknowledged;
    log(
      `throughput: warm-up acknowledged ${warm.recordsAcknowledged} records; waiting until they are stored`,
    );
  }
  await allStored(ctx);

  log(`throughput: closed loop, ${senders.length} senders × ${records} records, ${settings.seconds} s`);
  let storedBefore = await storedPositions(ctx);
  await generators.status();
  let cpu = cpuMeter(ctx).start();
  let started = performance.now();
  const closed = await generators.closedLoop(senders, settings.seconds, records);
  const closedCpu = cpu();
  const closedGenerators = await generators.status();
  ctx.acknowledged += closed.recordsAcknowledged;
  const closedStored = await waitStored(ctx, storedBefore + closed.recordsAcknowledged, started);
  const closedStoredCpu = cpu();
  const endToEnd = Math.round(closed.recordsAcknowledged / closedStored.seconds);
  const ingestPeakAfterClosed = setup.ingest.peakRssMb();
  log(
    `throughput: ${Math.round(closed.recordsAcknowledged / closed.seconds)} records/s acknowledged, ` +
      `${endToEnd} records/s stored end to end`,
  );

  const openRate = settings.openRate ?? Math.round(endToEnd / 2);
  if (settings.openWarmupSeconds > 0) {
    log(`throughput: open-loop warm-up at ${openRate} records/s for ${settings.openWarmupSeconds} s`);
    const warm = await generators.openLoop(senders, openRate, settings.openWarmupSeconds, records);
    ctx.acknowledged += warm.recordsAcknowledged;
    await allStored(ctx);
  }
  log(`throughput: open loop at ${openRate} records/s for ${settings.openSeconds} s`);
  storedBefore = await storedPositions(ctx);
  await generators.status();
  cpu = cpuMeter(ctx).start();
  started = performance.now();
  const open = await generators.openLoop(senders, openRate, settings.openSeconds, records);
  const openCpu = cpu();
  const openGenerators = await generators.status();
  ctx.acknowledged += open.recordsAcknowledged;
  const openStored = await waitStored(ctx, storedBefore + open.recordsAcknowledged, started);
  const openFigures = loopFigures(open);
  log(`throughput: open loop acknowledgement p99 ${openFigures.ackLatencyMs.p99} ms`);

  const storedTarget = THROUGHPUT_TARGET.storedPerSecond[setup.kind];
  return {
    senders: senders.length,
    connectedMeanwhile: ctx.connected.size,
    recordsPerPacket: records,
    codec: '8E',
    storedMeasuredBy:
      'rows of query.positions, polled every 250 ms after the step until it holds every record ' +
      'acknowledged in the step (not consumer lag; each poll counts only the rows of transactions ' +
      'finished since the last, by accepted_xid, not the whole table); ' +
      'end to end = acknowledged records / (step start → all stored)',
    closedLoop: {
      ...loopFigures(closed),
      storedEndToEndPerSecond: endToEnd,
      allStored: closedStored.complete,
      storedWithinSeconds: round(closedStored.seconds, 2),
      cpuPercentOfOneCore: closedCpu,
      cpuPercentOfOneCoreUntilStored: closedStoredCpu,
      generator: closedGenerators,
      generatorVerdict: generatorVerdict(closedCpu.generator ?? 0, closedGenerators),
    },
    openLoop: {
      offeredRecordsPerSecond: openRate,
      offeredRateFrom:
        settings.openRate === undefined ? 'half the closed loop end-to-end rate' : '--open-rate',
      ...openFigures,
      allStored: openStored.complete,
      storedWithinSeconds: round(openStored.seconds, 2),
      cpuPercentOfOneCore: openCpu,
      generator: openGenerators,
      generatorVerdict: generatorVerdict(openCpu.generator ?? 0, openGenerators),
    },
    peakRssMb: peakRss(ctx),
    ingestPeakRssMbAfterClosedLoop: ingestPeakAfterClosed,
    targets: { storedPerSecond: storedTarget, openLoopAckP99Ms: THROUGHPUT_TARGET.openLoopAckP99Ms },
    meetsTargets: {
      stored: closedStored.complete && endToEnd >= storedTarget,
      openLoopAckP99: open.failed === 0 && openFigures.ackLatencyMs.p99 <= THROUGHPUT_TARGET.openLoopAckP99Ms,
    },
  };
}
