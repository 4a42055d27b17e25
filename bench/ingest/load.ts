/**
 * The load of bench/ingest: every vehicle's fixes, sent as batches to the batch endpoint or as single
 * OsmAnd reports to the device port, and the wait until they are stored in query-api's history.
 */
import { Pool } from 'pg';
import { HttpClient, RawHttpClient } from '../common/http-load';
import { ServiceProcess, sleep } from '../common/infra';
import { PositionCounter } from '../common/tables.queries';
import { imeiOf, VEHICLES } from './setup';

export const BATCH_SIZE = 500;

export interface Fix {
  vehicle: number;
  /** Epoch seconds. */
  t: number;
  lat: number;
  lon: number;
}

export type FleetLoad = ReturnType<typeof fleetLoad>;

/**
 * Every vehicle's fixes advance one second at a time, so each is new to history. Each vehicle drives
 * north at ~7 km/h from its own start, one fix a second: a continuous track, so that
 * telemetry-ingest's dirty-data rules (impossible speed) refuse none of it.
 */
export function fleetLoad(ingest: ServiceProcess, pool: Pool, authorization: string) {
  const trackStart = Math.floor(Date.now() / 1000) - 6 * 3600;
  const clock = new Array<number>(VEHICLES + 1).fill(trackStart);
  let nextVehicle = 0;
  const nextFix = (): Fix => {
    const vehicle = (nextVehicle++ % VEHICLES) + 1;
    const t = ++clock[vehicle];
    return {
      vehicle,
      t,
      lat: 52.3 + (vehicle % 100) / 200 + (t - trackStart) / 60_000,
      lon: 13.1 + Math.floor(vehicle / 100) / 20,
    };
  };
  // The rows added since the last call, not count(*) of the whole table, which took the projection's CPU.
  const counter = new PositionCounter(pool);
  const stored = () => counter.count();
  const batchClient = new HttpClient(ingest.baseUrl, 8);
  const batchBody = () =>
    JSON.stringify({
      positions: Array.from({ length: BATCH_SIZE }, () => {
        const fix = nextFix();
        return {
          deviceId: imeiOf(fix.vehicle),
          timestamp: new Date(fix.t * 1000).toISOString(),
          lat: fix.lat,
          lon: fix.lon,
          speedKmh: 42,
          course: 90,
          ignition: true,
          satellites: 9,
        };
      }),
    });
  const deviceClient = new RawHttpClient(ingest.deviceUrl);
  return {
    nextFix,
    stored,
    /** Waits until history holds `expected` positions; the seconds since `since`. */
    waitStored: async (expected: number, since: number) => {
      for (;;) {
        const n = await stored();
        if (n >= expected) return (performance.now() - since) / 1000;
        if (performance.now() - since > 300_000) throw new Error(`only ${n} of ${expected} positions stored`);
        await sleep(100);
      }
    },
    sendBatch: async () => {
      const response = await batchClient.send('POST', '/ingest/v1/positions', batchBody(), {
        'content-type': 'application/json',
        authorization,
      });
      return response.status;
    },
    closeBatches: () => batchClient.close(),
    sendSingle: async () => {
      const fix = nextFix();
      const answer = await deviceClient.get(
        `/?id=${imeiOf(fix.vehicle)}&timestamp=${fix.t}&lat=${fix.lat}&lon=${fix.lon}&speed=22.7&bearing=90&ignition=true&sat=9`,
      );
      return answer.status;
    },
    closeSingles: () => deviceClient.close(),
  };
}
