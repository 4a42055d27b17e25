import { CompanyDirectory, Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { VehicleIdentity } from '../position-records/position-view';
import { QueryApiException, QueryApiExceptionCode } from '../query-api.exception';
import { Counted, Slice } from './paging';
import { VisibleVehicle, VisibleVehicles } from './visible-vehicles';

/**
 * Which companies and vehicles a token reaches. A token reaches its own company and every company
 * below it (as this process's company projection knows them); the token's `Vehicles` allowlist,
 * when present, narrows every vehicle-level result and lookup. Unreachable and unknown look the same: 404.
 */
@Injectable()
export class VehicleAccess {
  constructor(
    private readonly companies: CompanyDirectory,
    private readonly vehicles: VisibleVehicles,
  ) {}

  /** The vehicle of a vehicle route, or 404 when it does not exist or the token may not see it. */
  async visibleVehicle(principal: Principal, vehicleId: number): Promise<VehicleIdentity> {
    const vehicle = await this.vehicles.one(
      vehicleId,
      this.companiesOf(principal),
      this.allowlistOf(principal),
    );
    if (!vehicle) {
      throw new QueryApiException(
        QueryApiExceptionCode.VehicleNotFound,
        `Vehicle ${vehicleId} was not found.`,
      );
    }
    return vehicle;
  }

  /** Vehicles the token sees through vehicle routes, optionally narrowed to one id, IMEI or VIN; by id. */
  visibleVehicles(
    principal: Principal,
    by: { vehicleId?: number; imei?: string; vin?: string },
    slice: Slice,
  ): Promise<Counted<VisibleVehicle>> {
    return this.vehicles.find(by, this.companiesOf(principal), this.allowlistOf(principal), slice);
  }

  /** Vehicles of one company the token reaches (already checked with `reachableCompany`). */
  companyVehicles(principal: Principal, companyId: number, slice: Slice): Promise<Counted<VisibleVehicle>> {
    return this.vehicles.find({}, [companyId], this.allowlistOf(principal), slice);
  }

  /** The `{id}` company of a company route, or 404 when it does not exist or is out of the token's reach. */
  reachableCompany(principal: Principal, companyId: number): number {
    if (!this.companies.get(companyId) || !this.companies.isWithin(principal.companyId, companyId)) {
      throw new QueryApiException(
        QueryApiExceptionCode.CompanyNotFound,
        `Company ${companyId} was not found.`,
      );
    }
    return companyId;
  }

  /** Companies whose vehicles the token may see through vehicle routes. */
  companiesOf(principal: Principal): number[] {
    return this.companies.reachableFrom(principal.companyId);
  }

  /** The allowlist as a SQL parameter: null means no restriction. */
  allowlistOf(principal: Principal): number[] | null {
    return principal.vehicles ?? null;
  }
}
