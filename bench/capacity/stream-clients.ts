/**
 * bench/capacity's live-stream clients (issue 33, item 1): `count` SSE clients at the edge, given to
 * the companies in turn, each following its whole company with that company's read token, as a live
 * map of the fleet does. Every probe fix a client receives is one sample of accepted → stream event.
 * The clients run in the bench's process (bench/stream's light parser; their CPU is the bench's).
 */
import { log } from '../common/infra';
import { StreamClient } from '../stream/sse-load';
import { BenchCompany, BenchVehicle } from './fleet';

/** A position a client received: its vehicle, its fix time (epoch seconds) and when it arrived (epoch ms). */
export type OnStreamPosition = (vehicleId: number, fixSecond: number, receivedAtMs: number) => void;

/** What the clients received since the last call, for a step's figures. */
export interface StreamFigures {
  clients: number;
  /** Clients whose stream is still open (not refused, not ended by the server). */
  open: number;
  events: number;
  eventsPerSecond: number;
  /** Events of a vehicle outside the client's company: must stay 0. */
  violations: number;
}

export class StreamClients {
  private readonly clients: StreamClient[] = [];
  private readonly perCompany = new Map<number, number>();
  private eventsBefore = 0;
  private violationsBefore = 0;
  private since = performance.now();

  constructor(
    count: number,
    companies: readonly BenchCompany[],
    vehicles: readonly BenchVehicle[],
    private readonly edge: string,
    onPosition: OnStreamPosition,
  ) {
    const vehiclesOf = new Map<number, Set<number>>();
    for (const vehicle of vehicles) {
      const own = vehiclesOf.get(vehicle.company.id) ?? new Set<number>();
      own.add(vehicle.id);
      vehiclesOf.set(vehicle.company.id, own);
    }
    for (let index = 0; index < count && companies.length > 0; index++) {
      const company = companies[index % companies.length];
      this.perCompany.set(company.id, (this.perCompany.get(company.id) ?? 0) + 1);
      const plan = {
        index,
        companyId: company.id,
        token: company.authorization.replace(/^Bearer /, ''),
        companyVehicles: vehiclesOf.get(company.id) ?? new Set<number>(),
        vehicleIds: null,
      };
      this.clients.push(
        new StreamClient(plan, edge, (_client, key, at) => {
          // key: `vehicleId@utcTime`, the time's first 19 characters being the UTC second.
          const separator = key.indexOf('@');
          const fixMs = Date.parse(`${key.slice(separator + 1, separator + 20)}Z`);
          onPosition(Number(key.slice(0, separator)), Math.floor(fixMs / 1000), at);
        }),
      );
    }
  }

  /** How many clients follow the company. */
  readonly clientsOf = (companyId: number): number => this.perCompany.get(companyId) ?? 0;

  /** Connects every client, 50 at a time; throws if any was refused. */
  async connect(): Promise<void> {
    for (let at = 0; at < this.clients.length; at += 50)
      await Promise.all(this.clients.slice(at, at + 50).map((client) => client.connect()));
    const refused = this.clients.filter((client) => client.status !== 200);
    if (refused.length > 0)
      throw new Error(
        `${refused.length} stream clients refused (status ${refused[0].status}) at ${this.edge}`,
      );
    log(`${this.clients.length} stream clients connected`);
    this.take();
  }

  /** The figures since the last call. */
  take(): StreamFigures {
    const events = this.clients.reduce((sum, client) => sum + client.events, 0);
    const violations = this.clients.reduce((sum, client) => sum + client.violations, 0);
    const seconds = (performance.now() - this.since) / 1000;
    const figures = {
      clients: this.clients.length,
      open: this.clients.filter((client) => client.status === 200 && !client.ended).length,
      events: events - this.eventsBefore,
      eventsPerSecond: Math.round((events - this.eventsBefore) / seconds),
      violations: violations - this.violationsBefore,
    };
    this.eventsBefore = events;
    this.violationsBefore = violations;
    this.since = performance.now();
    return figures;
  }

  close(): void {
    for (const client of this.clients) client.drop();
  }
}
