import { describeTroubleCode } from '@fleet/diagnostics';
import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Counted, Slice } from '../../common/paging';
import { VehicleAccess } from '../../common/vehicle-access';
import { QUERY_SCHEMA } from '../../query-api.schema.constants';
import { ExplainedEngineCode } from './dto/engine-code.dto';
import { EngineCodeQueries } from './engine-codes.queries';

/**
 * The diagnostic trouble codes a vehicle has reported (docs/engine-codes.md): the rows the position
 * projection keeps in `vehicle_engine_codes` (first and last seen), active when the insight state of
 * the vehicle's last position still lists them (`activeCodes`), each explained by @fleet/diagnostics.
 * Active codes come first, then the most recently seen, then by code, so a page is stable.
 */
@Injectable()
export class EngineCodesService {
  private readonly queries: EngineCodeQueries;

  constructor(
    @InjectDataSource(QUERY_SCHEMA) dataSource: DataSource,
    private readonly access: VehicleAccess,
  ) {
    this.queries = new EngineCodeQueries(dataSource);
  }

  /** A page of the codes of a vehicle the token sees (404 otherwise). */
  async ofVehicle(
    principal: Principal,
    vehicleId: number,
    slice: Slice,
  ): Promise<Counted<ExplainedEngineCode>> {
    await this.access.visibleVehicle(principal, vehicleId);
    const { rows, total } = await this.queries.ofVehicle(vehicleId, slice);
    return {
      rows: rows.map((row) => ({
        code: row.code,
        firstSeen: row.first_seen,
        lastSeen: row.last_seen,
        isActive: row.is_active,
        explained: describeTroubleCode(row.code)!,
      })),
      total,
    };
  }
}
