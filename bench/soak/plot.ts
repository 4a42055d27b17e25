import { linePanel, plotRows, renderPanels } from '../common/plot';
import type { SoakMinute } from './soak-minute';

const panel =
  (title: string, unit: string, pick: (minute: SoakMinute) => Record<string, number | null>) =>
  (minutes: readonly SoakMinute[]) =>
    linePanel(
      title,
      'minute',
      unit,
      plotRows(minutes, (minute) => minute.minute, pick),
    );

/** The soak's curves as one PNG: a leak or a slow drift shows as a rising line. */
export async function soakPlot(minutes: readonly SoakMinute[]): Promise<Buffer> {
  return renderPanels(
    [
      panel('Resident memory per process', 'MB', (minute) => minute.rssMb),
      panel('Event-loop lag p99 per process', 'ms', (minute) => minute.eventLoopLagP99Ms),
      panel('Consumer lag per service', 'messages', (minute) => minute.consumerLag),
      panel('Latency p99', 'ms', (minute) => ({
        'batch POST': minute.batchP99Ms,
        'edge read': minute.readP99Ms,
      })),
      panel('Throughput', 'per second', (minute) => ({
        positions: minute.positionsPerSecond,
        'alerts x100': minute.alertsPerSecond * 100,
        'webhooks x100': minute.webhooksPerSecond * 100,
      })),
    ].map((make) => make(minutes)),
  );
}
