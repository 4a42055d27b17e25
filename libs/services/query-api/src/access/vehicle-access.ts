import { ApiException } from '@fleet/errors';
import { CompanyDirectory, Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { PositionReader } from '../positions/position-reader';
import { VehicleIdentity } from '../records/position-view';

/**
 * Which companies and vehicles a token reaches. A token reaches its own company and every company
 * below it (as this process's company projection knows them); the token's `Vehicles` allowlist,
 * when present, narrows every vehicle-level result and lookup. Unreachable and unknown look the same: 404.
 */
@Injectable()
export class VehicleAccess {
  constructor(
    private readonly companies: CompanyDirectory,
    private readonly reader: PositionReader,
  ) {}

  /** The vehicle of a vehicle route, or 404 when it does not exist or the token may not see it. */
  async visibleVehicle(principal: Principal, vehicleId: number): Promise<VehicleIdentity> {
    const vehicle = await this.reader.visibleVehicle(
      vehicleId,
      this.companiesOf(principal),
      this.allowlistOf(principal),
    );
    if (!vehicle) throw ApiException.notFound(`Vehicle ${vehicleId} was not found.`);
    return vehicle;
  }

  /** The `{id}` company of a company route, or 404 when it does not exist or is out of the token's reach. */
  reachableCompany(principal: Principal, companyId: number): number {
    if (!this.companies.get(companyId) || !this.companies.isWithin(principal.companyId, companyId)) {
      throw ApiException.notFound(`Company ${companyId} was not found.`);
    }
    return companyId;
  }

  /** Companies whose vehicles the token may see through vehicle routes. */
  companiesOf(principal: Principal): number[] {
    const known = this.companies.subtreeOf(principal.companyId);
    // A token's own company may not have reached this process's projection yet; it is still its own.
    return known.includes(principal.companyId) ? known : [principal.companyId, ...known];
  }

  /** The allowlist as a SQL parameter: null means no restriction. */
  allowlistOf(principal: Principal): number[] | null {
    return principal.vehicles ?? null;
  }
}
