/**
 * Phase `connections`: `--connections` Teltonika devices connect to one telemetry-ingest (the fleet app
 * when embedded), log in, send their first fix (so that each session is trusted, holds its vehicle's
 * fix-filter state, and is what a real device's session is), and then stay connected, each writing the
 * one-byte ping after `--ping-seconds` without sending, for `--hold-seconds`. Measured: the ingest
 * process's resident memory before, after connecting and over the hold, and per connection.
 */
import { log, round, sleep } from '../common/infra';
import { connectDevices, Context, cpuMeter, devicesOn, rssMb, selfReport } from './context';

export const CONNECTIONS_TARGET = { ingestRssMb: 400 };

export async function connectionsPhase(ctx: Context) {
  const { setup, generators, settings } = ctx;
  const ingest = setup.ingest;
  // Idle for a moment after registration: the baseline is the service at rest with its vehicles known.
  await sleep(2_000);
  const before = await selfReport(ingest);
  log(`connections: ${settings.connections} devices to ${ingest.app} (RSS ${before.rssMb} MB before)`);
  const cpu = cpuMeter(ctx).start();
  await generators.status(); // resets the generators' event-loop histograms
  const devices = devicesOn(ctx, settings.connections, ingest);
  const connect = await connectDevices(ctx, devices);
  for (const device of devices) ctx.connected.add(device.imei);
  await generators.ping(settings.pingSeconds);
  const connectCpu = cpu();
  const afterConnect = await selfReport(ingest);
  log(
    `connections: ${connect.connected} connected in ${connect.seconds} s (refused ${connect.refused}, ` +
      `failed ${connect.failed}); RSS ${afterConnect.rssMb} MB; holding ${settings.holdSeconds} s`,
  );
  const generatorsAfterConnect = await generators.status();

  const holdCpu = cpuMeter(ctx).start();
  const samples: number[] = [];
  const holdEnd = performance.now() + settings.holdSeconds * 1000;
  while (performance.now() < holdEnd) {
    samples.push(rssMb(ingest.pid));
    await sleep(Math.min(1_000, Math.max(0, holdEnd - performance.now())));
  }
  const afterHold = await selfReport(ingest);
  samples.push(afterHold.rssMb);
  const holdUsage = holdCpu();
  const generatorsAfterHold = await generators.status();
  const open = generatorsAfterHold.reduce((sum, status) => sum + status.open, 0);
  const closedByServer = generatorsAfterHold.reduce((sum, status) => sum + status.closedByServer, 0);
  const maxRss = Math.max(afterConnect.rssMb, ...samples);
  const perConnectionKb = (mb: number) =>
    connect.connected ? round(((mb - before.rssMb) * 1024) / connect.connected) : 0;
  const heapPerConnectionKb = connect.connected
    ? round(((afterHold.heapUsedMb - before.heapUsedMb) * 1024) / connect.connected)
    : 0;
  log(
    `connections: RSS after the hold ${afterHold.rssMb} MB, ${perConnectionKb(afterHold.rssMb)} KB a connection`,
  );
  return {
    process: ingest.app,
    requested: settings.connections,
    connect,
    firstFix: settings.firstFix,
    pingSeconds: settings.pingSeconds,
    holdSeconds: settings.holdSeconds,
    openAfterHold: open,
    closedByServer,
    sessionsReportedByService: afterHold.teltonikaSessions,
    memory: {
      explained:
        'rssMb: VmRSS of the process from /proc; heap and external: its own /metrics (prom-client). ' +
        'before: idle, vehicles registered, no connection; afterConnect: every device logged in (and its ' +
        'first fix stored); afterHold: at the end of the hold; maxDuringHoldMb: the highest of 1 s samples; ' +
        'perConnectionKb: (RSS after - RSS before) / connections',
      before,
      afterConnect,
      afterHold,
      maxDuringHoldMb: maxRss,
      peakRssMbSinceStart: ingest.peakRssMb(),
      perConnectionKb: {
        afterConnect: perConnectionKb(afterConnect.rssMb),
        afterHold: perConnectionKb(afterHold.rssMb),
      },
      heapPerConnectionKb,
    },
    cpuPercentOfOneCore: { connecting: connectCpu, holding: holdUsage },
    generator: { afterConnect: generatorsAfterConnect, afterHold: generatorsAfterHold },
    meetsTarget:
      connect.connected === settings.connections &&
      open === settings.connections &&
      maxRss <= CONNECTIONS_TARGET.ingestRssMb,
  };
}
