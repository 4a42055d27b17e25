import { FleetSimulator, trackerSender } from '@fleet/simulator';
import { readSimulatorOptions, UsageError, USAGE } from './simulator-options';

/** `npm run simulate`: a simulated fleet reporting to a running platform's tracker ports. */
async function main(): Promise<void> {
  const options = readSimulatorOptions(process.argv.slice(2));
  const sender = trackerSender(options.endpoints, (imei) => options.trackers[imei] ?? 'osmand', {
    connections: options.connections,
    secretOf: (imei) => options.secrets[imei],
  });
  const simulator = new FleetSimulator({
    ...options,
    historySeconds: options.fast ? options.durationSeconds : 0,
    send: sender.send,
    commands: sender,
  });
  process.once('SIGINT', () => simulator.stop());
  process.once('SIGTERM', () => simulator.stop());
  process.stderr.write(
    `simulating ${options.imeis.length} vehicles (${protocolCounts(options.trackers)}), a report every ${options.intervalSeconds} s` +
      `${options.fast ? ` (fast, the last ${options.durationSeconds} s)` : ''}` +
      `${options.restHistoryDays ? `, after ${options.restHistoryDays} nights at rest before it` : ''}\n`,
  );
  const progress = setInterval(() => {
    const { reports, accepted, rejected, failed, simulatedSeconds, acceptedPerSecond } = simulator.stats();
    process.stderr.write(
      `${JSON.stringify({ reports, accepted, rejected, failed, simulatedSeconds, acceptedPerSecond })}\n`,
    );
  }, 10_000);
  const stats = await simulator.run();
  clearInterval(progress);
  sender.close();
  process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
  // Nothing accepted is a failure a script should notice (wrong URL, unregistered IMEIs).
  if (stats.accepted === 0 && stats.reports > 0) process.exitCode = 1;
}

function protocolCounts(trackers: Record<string, string>): string {
  const counts = new Map<string, number>();
  for (const protocol of Object.values(trackers)) counts.set(protocol, (counts.get(protocol) ?? 0) + 1);
  return [...counts].map(([protocol, count]) => `${count} ${protocol}`).join(', ');
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
    process.stderr.write(`${error.message ? `${error.message}\n\n` : ''}${USAGE}\n`);
    process.exit(64);
  }
  process.stderr.write(`simulator failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
