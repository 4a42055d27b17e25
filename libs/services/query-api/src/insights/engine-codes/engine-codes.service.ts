import { describeTroubleCode } from '@fleet/diagnostics';
import { Principal } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Counted, pagedRows, Slice } from '../../common/paging';
import { VehicleAccess } from '../../common/vehicle-access';
import { QUERY_SCHEMA } from '../../query-api.schema.constants';
import { ExplainedEngineCode } from './dto/engine-code.dto';

interface EngineCodeRow {
  in_page: boolean | null;
  code: string;
  first_seen: Date;
  last_seen: Date;
  is_active: boolean;
  total: string;
}

/**
 * The diagnostic trouble codes a vehicle has reported (docs/engine-codes.md): the rows the position
 * projection keeps in `vehicle_engine_codes` (first and last seen), active when the insight state of
 * the vehicle's last position still lists them (`activeCodes`), each explained by @fleet/diagnostics.
 * Active codes come first, then the most recently seen, then by code, so a page is stable.
 */
@Injectable()
export class EngineCodesService {
  constructor(
    @InjectDataSource(QUERY_SCHEMA) private readonly dataSource: DataSource,
    private readonly access: VehicleAccess,
  ) {}

  /** A page of the codes of a vehicle the token sees (404 otherwise). */
  async ofVehicle(
    principal: Principal,
    vehicleId: number,
    slice: Slice,
  ): Promise<Counted<ExplainedEngineCode>> {
    await this.access.visibleVehicle(principal, vehicleId);
    const { rows, total } = pagedRows<EngineCodeRow>(
      await this.dataSource.query(
        // The shape check repeats the projection's: a row that is not a trouble code cannot be explained,
        // and leaving it out of the count too keeps the pages consistent.
        `WITH codes AS (
           SELECT ec.code, ec.first_seen, ec.last_seen,
                  COALESCE((lp.insight_state->'activeCodes') ? ec.code, false) AS is_active
             FROM query.vehicle_engine_codes ec
             LEFT JOIN query.last_positions lp ON lp.vehicle_id = ec.vehicle_id
            WHERE ec.vehicle_id = $1 AND ec.code ~ '^[PCBU][0-3][0-9A-F]{3}$')
         SELECT paged.*, counted.total
           FROM (SELECT count(*) AS total FROM codes) counted
           LEFT JOIN LATERAL (
             SELECT true AS in_page, * FROM codes ORDER BY is_active DESC, last_seen DESC, code
              LIMIT $2 OFFSET $3) paged ON true
          ORDER BY paged.is_active DESC, paged.last_seen DESC, paged.code`,
        [vehicleId, slice.limit, slice.offset],
      ),
    );
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
