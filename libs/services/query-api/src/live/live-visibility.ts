import { Actions, tokenMayPerform } from '@fleet/contracts';
import { CompanyDirectory, Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { LiveQueries, LiveScope } from './live.queries';
import { RevokedApiKeys } from './revoked-api-keys';

/** How long the vehicles of a set of companies are reused before they are read again. */
const VEHICLES_TTL_MS = 2_000;

export const LIVE_TYPES = ['positions', 'alerts', 'commands'] as const;
export type LiveType = (typeof LIVE_TYPES)[number];

/** What a reader asked for: the types, and optionally only some vehicles. */
export interface LiveRequest {
  types: readonly LiveType[];
  vehicleIds: readonly number[] | null;
}

/** The action each type needs: the one of the route that reads the same records. */
const ACTION_OF: Record<LiveType, string> = {
  positions: Actions.readVehicles,
  alerts: Actions.readAlerts,
  commands: Actions.sendCommands,
};

/** What a reader sees now: its scope for the queries, and the same as sets for filtering live rows. */
export interface LiveView {
  types: ReadonlySet<LiveType>;
  scope: LiveScope;
  /** Vehicles whose positions and commands it sees: mapped to its companies, on its allowlist. */
  vehicles: ReadonlySet<number>;
  /** Companies whose alerts and commands it sees: its own and those below. */
  companies: ReadonlySet<number>;
  /** Alerts only of these vehicles (its allowlist and the request's), or of all. */
  alertVehicles: ReadonlySet<number> | null;
}

const intersect = (a: readonly number[] | null, b: readonly number[] | null): number[] | null =>
  a === null ? (b === null ? null : [...b]) : b === null ? [...a] : a.filter((id) => b.includes(id));

/**
 * Who sees what on the live channels: exactly what the token sees through the last-position routes of
 * the companies it reaches (vehicles mapped to them, narrowed by its `Vehicles` allowlist), the
 * alert-record routes (records of those companies, narrowed the same way) and a vehicle's command
 * routes (commands those companies sent to those vehicles), each type only with the action its route
 * needs. The same CompanyDirectory and the same registry mappings as those routes,
 * read again every few seconds, so a mapping or a new sub-company shows on an open stream soon.
 */
@Injectable()
export class LiveVisibility {
  private readonly vehicles = new Map<string, { at: number; ids: Promise<number[]> }>();

  constructor(
    private readonly companies: CompanyDirectory,
    private readonly queries: LiveQueries,
    private readonly revoked: RevokedApiKeys,
  ) {}

  /** Whether the token's API key was deleted since it was issued: its stream must end. */
  keyRevoked(principal: Principal): boolean {
    return this.revoked.revokes(principal);
  }

  /** The types the token may read among those asked for (all it may read when none were asked for). */
  typesFor(principal: Principal, asked: readonly LiveType[] | null): LiveType[] {
    return (asked ?? LIVE_TYPES).filter((type) => tokenMayPerform(principal.actions, ACTION_OF[type]));
  }

  /** Whether the token's company, or one above it, is suspended: the stream must end. */
  suspendedCompanyOf(principal: Principal): string | undefined {
    return this.companies.blockingAncestor(principal.companyId)?.name;
  }

  async viewOf(principal: Principal, request: LiveRequest): Promise<LiveView> {
    const types = new Set(request.types);
    const reachable = this.companies.reachableFrom(principal.companyId);
    const narrowed = intersect(principal.vehicles ?? null, request.vehicleIds);
    const mapped = types.has('positions') || types.has('commands') ? await this.vehiclesOf(reachable) : [];
    const vehicles = narrowed === null ? mapped : mapped.filter((id) => narrowed.includes(id));
    return {
      types,
      scope: { vehicleIds: vehicles, companyIds: reachable, alertVehicleIds: narrowed },
      vehicles: new Set(vehicles),
      companies: new Set(reachable),
      alertVehicles: narrowed === null ? null : new Set(narrowed),
    };
  }

  private vehiclesOf(companyIds: number[]): Promise<number[]> {
    const key = [...companyIds].sort((a, b) => a - b).join(',');
    const now = Date.now();
    const cached = this.vehicles.get(key);
    if (cached && now - cached.at < VEHICLES_TTL_MS) return cached.ids;
    const ids = this.queries.vehiclesOf(companyIds);
    this.vehicles.set(key, { at: now, ids });
    ids.catch(() => this.vehicles.delete(key));
    if (this.vehicles.size > 10_000) this.dropStale(now);
    return ids;
  }

  private dropStale(now: number): void {
    for (const [key, entry] of this.vehicles)
      if (now - entry.at >= VEHICLES_TTL_MS) this.vehicles.delete(key);
  }
}
