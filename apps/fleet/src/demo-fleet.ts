import { readFile } from 'node:fs/promises';
import {
  FleetSimulator,
  FleetSimulatorOptions,
  ReportSender,
  TrackerSender,
  trackerSender,
} from '@fleet/simulator';
import { Logger } from '@nestjs/common';
import type { DemoCredentials } from './demo-tenant';

/**
 * The fleet is deterministic for a seed; with this one the top company's three vehicles are on the road
 * when the default two hours of history end, so the first look at the demo shows them moving, and the
 * demo's alert configurations (demo-alerts.ts) all fire within the first hour, every alert type within
 * the first quarter hour; the top company's history holds harsh braking, acceleration, cornering and
 * speeding (demo-fleet.spec.ts holds it to all of these; searched among the seeds up to 2,000).
 */
export const DEMO_FLEET_SEED = 1765;

/**
 * Nights at rest the demo vehicles report before their history (FleetSimulatorOptions.restHistoryDays):
 * two weeks of resting voltages and engine starts, so battery health has a trend and a prediction at
 * once (the weakening battery of the third vehicle, fleetTraits), for about a hundred reports a vehicle.
 */
export const DEMO_REST_HISTORY_DAYS = 14;

export interface DemoFleet {
  stop(): Promise<void>;
}

export interface DemoFleetOptions {
  intervalSeconds: number;
  historySeconds: number;
  /** Default DEMO_REST_HISTORY_DAYS, and none without a history fill. */
  restHistoryDays?: number;
}

/**
 * The simulator's options for the demo fleet (demo-fleet.spec.ts runs the same). A history fill (the
 * first start of a data directory) is preceded by the nights at rest; without one there are none
 * either: a restart would send a second past before the stored one.
 */
export function demoSimulatorOptions(
  imeis: readonly string[],
  options: DemoFleetOptions,
  send: ReportSender,
  commands?: TrackerSender,
): FleetSimulatorOptions {
  return {
    imeis,
    intervalSeconds: options.intervalSeconds,
    historySeconds: options.historySeconds,
    restHistoryDays: options.historySeconds > 0 ? (options.restHistoryDays ?? DEMO_REST_HISTORY_DAYS) : 0,
    seed: DEMO_FLEET_SEED,
    send,
    commands,
  };
}

/**
 * The demo tenant's vehicles, driven by the simulator through the app's own tracker ports, each in its
 * tracker's protocol (the same path a real tracker takes; commands are carried out as they arrive). The nights at rest and `historySeconds` are sent first, without waiting, so
 * trips, history and battery trends exist when a newcomer looks; then the vehicles report in real time
 * until the app stops.
 */
export async function startDemoFleet(credentialsFile: string, options: DemoFleetOptions): Promise<DemoFleet> {
  const logger = new Logger('DemoFleet');
  const credentials = JSON.parse(await readFile(credentialsFile, 'utf8')) as DemoCredentials;
  const trackers = new Map(
    credentials.vehicles.map((vehicle) => [vehicle.imei, vehicle.tracker ?? 'osmand']),
  );
  const secrets = new Map(credentials.vehicles.map((vehicle) => [vehicle.imei, vehicle.deviceSecret]));
  const sender = trackerSender(credentials.ingest, (imei) => trackers.get(imei) ?? 'osmand', {
    connections: credentials.vehicles.length,
    secretOf: (imei) => secrets.get(imei),
  });
  const simulatorOptions = demoSimulatorOptions(
    credentials.vehicles.map((vehicle) => vehicle.imei),
    options,
    sender.send,
    sender,
  );
  const simulator = new FleetSimulator(simulatorOptions);
  logger.log({
    msg: 'demo fleet driving',
    vehicles: credentials.vehicles.length,
    intervalSeconds: options.intervalSeconds,
    historySeconds: options.historySeconds,
    restHistoryDays: simulatorOptions.restHistoryDays,
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
