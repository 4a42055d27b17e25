import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { Counted, Slice } from '../common/paging';
import { VehicleAccess } from '../common/vehicle-access';
import { VisibleVehicle } from '../common/visible-vehicles';
import { QueryApiException, QueryApiExceptionCode } from '../query-api.exception';

/** Looks up the vehicles a token sees: lists, and by id, IMEI or VIN. */
@Injectable()
export class VehiclesService {
  constructor(private readonly access: VehicleAccess) {}

  /** Every vehicle the token sees, by id. */
  list(principal: Principal, slice: Slice): Promise<Counted<VisibleVehicle>> {
    return this.access.visibleVehicles(principal, {}, slice);
  }

  /** The vehicles of one company the token reaches (default: its own), by id. */
  ofCompany(principal: Principal, companyId: number, slice: Slice): Promise<Counted<VisibleVehicle>> {
    this.access.reachableCompany(principal, companyId);
    return this.access.companyVehicles(principal, companyId, slice);
  }

  /** The one vehicle with exactly one of the given IMEI, id or VIN; 422 unless exactly one is given. */
  async lookUp(
    principal: Principal,
    by: { imei?: string; vehicleId?: number; vin?: string },
  ): Promise<VisibleVehicle> {
    const given = [by.imei, by.vehicleId, by.vin].filter((value) => value !== undefined);
    if (given.length !== 1) {
      throw new QueryApiException(
        QueryApiExceptionCode.InvalidVehicleLookup,
        'give exactly one of imei, vehicleId or vin',
      );
    }
    const { rows } = await this.access.visibleVehicles(principal, by, { limit: 1, offset: 0 });
    if (!rows[0]) throw new QueryApiException(QueryApiExceptionCode.VehicleNotFound, 'No such vehicle.');
    return rows[0];
  }

  /** The vehicles of a tracker IMEI the token sees (more than one if the tracker moved); 404 when none. */
  async byImei(principal: Principal, imei: string, limit: number): Promise<VisibleVehicle[]> {
    const { rows } = await this.access.visibleVehicles(principal, { imei }, { limit, offset: 0 });
    if (!rows.length) {
      throw new QueryApiException(QueryApiExceptionCode.VehicleNotFound, `No vehicle has the IMEI ${imei}.`);
    }
    return rows;
  }
}
