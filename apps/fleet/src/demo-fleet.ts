import { readFile } from 'node:fs/promises';
import { FleetSimulator, osmandHttpSender } from '@fleet/simulator';
import { Logger } from '@nestjs/common';
import type { DemoCredentials } from './demo-tenant';

/**
 * The fleet is deterministic for a seed; with this one the top company's three vehicles are on the road
 * when the default two hours of history end, so the first look at the demo shows them moving, and the
 * demo's alert configurations (demo-alerts.ts) all fire within the first hour, every alert type within
 * the first quarter hour (demo-fleet.spec.ts holds it to both).
 */
export const DEMO_FLEET_SEED = 159;

export interface DemoFleet {
  stop(): Promise<void>;
}

/**
 * The demo tenant's vehicles, driven by the simulator through the app's own OsmAnd port (the same path
 * a real tracker takes). `historySeconds` is filled first, without waiting, so trips and history exist
 * when a newcomer looks; then the vehicles report in real time until the app stops.
 */
export async function startDemoFleet(
  credentialsFile: string,
  options: { intervalSeconds: number; historySeconds: number },
): Promise<DemoFleet> {
  const logger = new Logger('DemoFleet');
  const credentials = JSON.parse(await readFile(credentialsFile, 'utf8')) as DemoCredentials;
  const sender = osmandHttpSender(credentials.ingest.osmand, { connections: credentials.vehicles.length });
  const simulator = new FleetSimulator({
    imeis: credentials.vehicles.map((vehicle) => vehicle.imei),
    intervalSeconds: options.intervalSeconds,
    historySeconds: options.historySeconds,
    seed: DEMO_FLEET_SEED,
    send: sender.send,
  });
  logger.log({
    msg: 'demo fleet driving',
    vehicles: credentials.vehicles.length,
    intervalSeconds: options.intervalSeconds,
    historySeconds: options.historySeconds,
  });
  const running = simulator.run().then(
    (stats) => logger.log({ msg: 'demo fleet stopped', ...stats }),
    (error: unknown) => logger.error({ msg: 'demo fleet failed', error: String(error) }),
  );
  return {
    async stop() {
      simulator.stop();
      await running;
      sender.close();
    },
  };
}
