/**
 * `npm run bench:faults`: the fault matrix of the distributed mode (docs/operations.md, "Fault matrix").
 * While trackers report and alerts fire at a steady rate, it SIGKILLs each service in turn, restarts the
 * Kafka broker, makes PostgreSQL unreachable and stops Redis; then it counts what was accepted against
 * what was stored, fired, recorded and delivered. Prints JSON on stdout; progress on stderr.
 *
 *   npm run bench:faults -- [--faults kill:alert-engine,redis-outage] [--vehicles 20] [--interval-ms 1000]
 *                           [--steady-seconds 15] [--outage-seconds 10]
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
// The harness is test code, not built into dist/: ts-node compiles it from source.
import { ALL_FAULTS, FaultName, runFaultMatrix } from '@fleet/testing';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      faults: { type: 'string', default: ALL_FAULTS.join(',') },
      vehicles: { type: 'string', default: '20' },
      'interval-ms': { type: 'string', default: '1000' },
      'steady-seconds': { type: 'string', default: '15' },
      'outage-seconds': { type: 'string', default: '10' },
      'port-offset': { type: 'string', default: '18000' },
    },
  });
  const started = Date.now();
  const results = await runFaultMatrix({
    faults: values.faults.split(',') as FaultName[],
    vehicles: Number(values.vehicles),
    reportIntervalMs: Number(values['interval-ms']),
    steadySeconds: Number(values['steady-seconds']),
    outageSeconds: Number(values['outage-seconds']),
    portOffset: Number(values['port-offset']),
    log: (message) => process.stderr.write(`[faults] ${message}\n`),
  });
  const lost = results.reduce(
    (sum, result) => sum + result.positions.lost + result.alerts.lost + result.deliveries.lost,
    0,
  );
  process.stdout.write(
    `${JSON.stringify(
      {
        scenario: 'fault-matrix',
        vehicles: Number(values.vehicles),
        reportsPerSecond: (Number(values.vehicles) * 1000) / Number(values['interval-ms']),
        durationSeconds: Math.round((Date.now() - started) / 1000),
        lost,
        results,
      },
      null,
      2,
    )}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
