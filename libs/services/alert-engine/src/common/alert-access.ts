import { DEFAULT_DATE_FORMAT, RecordViewer } from '@fleet/formats';
import { CompanyDirectory, Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { notVehiclesOf } from '../configurations/configuration-rules';

/** Which records a token may see and change: those of its companies, of vehicles on its allowlist. */
export interface RecordScope {
  /** The token's company and every company below it. */
  companyIds: number[];
  /** The token's `Vehicles` allowlist; null when it has none. */
  allow: number[] | null;
}

/** How a token reads times (@fleet/formats). */
export { RecordViewer };

/**
 * Which companies and records a token reaches. A token reaches its own company and every company
 * below it (as this process's company projection knows them); other companies – siblings, parents,
 * unknown ones – look alike: 404. The token's `Vehicles` allowlist narrows records to its vehicles.
 */
@Injectable()
export class AlertAccess {
  constructor(private readonly companies: CompanyDirectory) {}

  /** The `{id}` company of a company route, or 404 when it does not exist or is out of the token's reach. */
  reachableCompany(principal: Principal, companyId: number): number {
    if (!this.companies.get(companyId) || !this.companies.isWithin(principal.companyId, companyId)) {
      throw new AlertEngineException(
        AlertEngineExceptionCode.CompanyNotFound,
        `Company ${companyId} was not found.`,
      );
    }
    return companyId;
  }

  /** The records a token reaches through record routes (by record id). */
  scopeOf(principal: Principal): RecordScope {
    return {
      companyIds: this.companies.reachableFrom(principal.companyId),
      allow: principal.vehicles ?? null,
    };
  }

  /** The records of one company the token reaches (already checked with `reachableCompany`). */
  scopeOfCompany(principal: Principal, companyId: number): RecordScope {
    return { companyIds: [companyId], allow: principal.vehicles ?? null };
  }

  viewerOf(principal: Principal): RecordViewer {
    return { timeZone: principal.timeZone, dateFormat: principal.dateFormat ?? DEFAULT_DATE_FORMAT };
  }

  /**
   * Vehicles a configuration body lists must be on the token's allowlist, if it has one: a token
   * limited to some vehicles neither names others nor learns whether they exist, so the answer is
   * the 422 an unknown vehicle gets.
   */
  checkListedVehicles(
    principal: Principal,
    companyId: number,
    vehicleIds: readonly number[] | undefined,
  ): void {
    const allow = principal.vehicles;
    if (!allow || !vehicleIds) return;
    const hidden = vehicleIds.filter((vehicleId) => !allow.includes(vehicleId));
    if (hidden.length) {
      throw new AlertEngineException(
        AlertEngineExceptionCode.InvalidDefinition,
        notVehiclesOf(hidden, companyId),
      );
    }
  }
}
