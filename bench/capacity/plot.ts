import { linePanel, plotRows, renderPanels } from '../common/plot';
import type { CapacityStep } from './step';

/** The capacity steps as one PNG: throughput, latencies, lag and CPU against the offered rate. */
export async function capacityPlot(steps: readonly CapacityStep[]): Promise<Buffer> {
  const x = (step: CapacityStep) => step.offeredPerSecond;
  const panel = (title: string, unit: string, pick: (step: CapacityStep) => Record<string, number | null>) =>
    linePanel(title, 'offered positions/s', unit, plotRows(steps, x, pick));
  return renderPanels([
    panel('Accepted', 'positions/s', (step) => ({
      offered: step.offeredPerSecond,
      accepted: step.acceptedPerSecond,
    })),
    panel('Latency p99', 'ms', (step) => ({
      'accepted → visible': step.p99Ms.visible,
      'accepted → alert record': step.p99Ms.alertRecord,
      'alert → webhook': step.p99Ms.webhook,
      'accepted → stream event': step.p99Ms.stream,
      'Teltonika ack': step.p99Ms.teltonikaAck,
    })),
    panel('Consumer lag after the recovery', 'messages', (step) => step.lagAfterRecovery),
    panel('CPU per process', '% of one core', (step) => step.cpuPercentOfOneCore),
    panel('Writes', 'per second', (step) => ({
      'PostgreSQL rows': step.postgresRowsPerSecond,
      'Kafka kB': Math.round(step.kafkaBytesPerSecond / 1000),
    })),
  ]);
}
