/**
 * bench/query's scenarios: each measured route as a request to the service and one to its bare
 * server, with the random pages, points, vehicles and windows the requests draw.
 */
import { RawAnswer, RawHttpClient } from '../common/http-load';
import { percentile, round } from '../common/infra';
import { DAY_MS, INSIGHT_DAYS, SMALL_FLEET, YEAR_FLEET } from './options';
import { YearVehicle } from './year-seeding';

/** Spreads requests over several servers' clients, one after the other. */
export class RoundRobin {
  private next = 0;

  constructor(private readonly clients: RawHttpClient[]) {}

  get(path: string, headers?: Record<string, string>): Promise<RawAnswer> {
    const client = this.clients[this.next];
    this.next = (this.next + 1) % this.clients.length;
    return client.get(path, headers);
  }

  close(): void {
    for (const client of this.clients) client.close();
  }
}

/** One side of a measured route: a request, sent to the service or to its bare server. */
export interface Scenario {
  run: () => Promise<number>;
}

/** p50/p95/p99 of one scenario's own latency samples (LoadResult has no p95). */
export function latencyOf(samples: number[]): {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
} {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(percentile(sorted, p), 1);
  return {
    requests: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: round(sorted[sorted.length - 1] ?? 0, 1),
  };
}

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The tokens of the three fleets' companies. */
export interface FleetTokens {
  small: string;
  large: string;
  year: string;
}

/**
 * Every scenario by name, the service's through `serviceUrls` and the bare one's through `bareUrls`;
 * what each answered last (its body's size), and the latency samples taken while `sampling` is on.
 */
export function buildScenarios(
  serviceUrls: string[],
  bareUrls: string[],
  tokens: FleetTokens,
  year: YearVehicle | undefined,
) {
  const randomPoint = () =>
    `lat=${round(36 + Math.random() * 20, 4)}&lng=${round(-8 + Math.random() * 36, 4)}`;
  const lastPositionPage = () => 1 + Math.floor(Math.random() * 20);
  /**
   * A safety-score window of the fleet: half a week ending on a random day of the month of rows
   * (`intervalType=4`, a local date as `finish`), half a 30-day instant range starting 25–35 days ago.
   */
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const fleetWindow = () =>
    Math.random() < 0.5
      ? `intervalType=4&finish=${isoDay(today - Math.floor(Math.random() * INSIGHT_DAYS) * DAY_MS)}`
      : (() => {
          const start = Date.now() - (25 + Math.random() * 10) * DAY_MS;
          return `intervalType=1&start=${new Date(start).toISOString()}&finish=${new Date(start + 30 * DAY_MS).toISOString()}`;
        })();
  const fleetVehicle = () => 1 + Math.floor(Math.random() * SMALL_FLEET.vehicles);
  // The year vehicle: the whole year up to now, or a calendar month from a random day of its history.
  const yearWindow = () =>
    `intervalType=1&start=${new Date(Date.now() - 365 * DAY_MS).toISOString()}&finish=${new Date().toISOString()}`;
  const monthWindow = () => {
    const from = year!.firstFixMs + Math.random() * (year!.lastFixMs - year!.firstFixMs - 31 * DAY_MS);
    const start = new Date(from);
    const finish = new Date(start);
    finish.setUTCMonth(finish.getUTCMonth() + 1);
    return `intervalType=1&start=${start.toISOString()}&finish=${finish.toISOString()}`;
  };

  // Closed loops through hand-parsed keep-alive clients (bench/common/http-load), the same for both
  // servers: node:http's client spent more of the shared cores on the service's larger bodies.
  const serviceLoad = new RoundRobin(serviceUrls.map((url) => new RawHttpClient(url)));
  const bareLoad = new RoundRobin(bareUrls.map((url) => new RawHttpClient(url)));
  // The size of each scenario's last response body: the service's records are fuller than the bare rows.
  const responseBytes: Record<string, number> = {};
  /** Latency samples of the year scenarios while measured, for their p95. */
  const samples: Record<string, number[]> = {};
  let sampling = false;
  const sized = async (name: string, answer: () => Promise<RawAnswer>) => {
    const sent = performance.now();
    const { status, bodyBytes } = await answer();
    if (sampling) (samples[name] ??= []).push(performance.now() - sent);
    responseBytes[name] = bodyBytes;
    return status;
  };
  const service = (name: string, path: () => string, token: string): Scenario => ({
    run: () => sized(name, () => serviceLoad.get(path(), { authorization: `Bearer ${token}` })),
  });
  const bare = (name: string, path: () => string): Scenario => ({
    run: () => sized(name, () => bareLoad.get(path())),
  });
  const scenarios: Record<string, Scenario> = {
    lastPosition: service(
      'lastPosition',
      () => `/v2/api/companies/1/vehicles/last-position?page=${lastPositionPage()}&pageSize=50`,
      tokens.small,
    ),
    lastPositionBare: bare(
      'lastPositionBare',
      () => `/last-position?company=1&page=${lastPositionPage()}&pageSize=50`,
    ),
    nearest: service(
      'nearest',
      () => `/v2/api/companies/2/vehicles/nearest?${randomPoint()}&num=10&pageSize=10`,
      tokens.large,
    ),
    nearestBare: bare('nearestBare', () => `/nearest?company=2&${randomPoint()}&num=10&pageSize=10`),
    safetyScore: service(
      'safetyScore',
      () => `/v2/api/safety-score/${fleetVehicle()}?${fleetWindow()}`,
      tokens.small,
    ),
    safetyScoreBare: bare(
      'safetyScoreBare',
      () => `/safety-score?company=${SMALL_FLEET.companyId}&vehicle=${fleetVehicle()}&${fleetWindow()}`,
    ),
    batteryHealth: service(
      'batteryHealth',
      () => `/v2/api/battery-health?pageNumber=${lastPositionPage()}&pageSize=50`,
      tokens.small,
    ),
    batteryHealthBare: bare(
      'batteryHealthBare',
      () => `/battery-health?company=${SMALL_FLEET.companyId}&page=${lastPositionPage()}&pageSize=50`,
    ),
    safetyScoreYear: service(
      'safetyScoreYear',
      () => `/v2/api/safety-score/${YEAR_FLEET.vehicleId}?${yearWindow()}`,
      tokens.year,
    ),
    safetyScoreYearBare: bare(
      'safetyScoreYearBare',
      () => `/safety-score?company=${YEAR_FLEET.companyId}&vehicle=${YEAR_FLEET.vehicleId}&${yearWindow()}`,
    ),
    safetyScoreMonth: service(
      'safetyScoreMonth',
      () => `/v2/api/safety-score/${YEAR_FLEET.vehicleId}?${monthWindow()}`,
      tokens.year,
    ),
    safetyScoreMonthBare: bare(
      'safetyScoreMonthBare',
      () => `/safety-score?company=${YEAR_FLEET.companyId}&vehicle=${YEAR_FLEET.vehicleId}&${monthWindow()}`,
    ),
  };
  return {
    scenarios,
    responseBytes,
    samples,
    setSampling: (on: boolean) => {
      sampling = on;
    },
    close: () => {
      serviceLoad.close();
      bareLoad.close();
    },
  };
}
