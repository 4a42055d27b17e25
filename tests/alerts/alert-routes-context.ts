import { alertEngineModules } from '@fleet/alert-engine-service-testing';
import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { TestContext, TestVehicle } from '@fleet/testing';

/** A record as the engine writes it; everything but the company, configuration, type and vehicle has a default. */
export interface TestRecord {
  companyId: number;
  configurationId: number;
  alertTypeId: number;
  vehicle: Pick<TestVehicle, 'id' | 'name'>;
  utcTime: Date;
  description?: string;
  lat?: number;
  lng?: number;
  address?: string | null;
  isRead?: boolean;
}

/**
 * auth, query-api and alert-engine in one test context: the alert routes with real tokens and
 * vehicles. Alert records are the engine's to write and vehicles reach alert-engine through its
 * projection of vehicle snapshots; both are put in place directly here, so that these tests need
 * neither the engine nor positions. Rate limits are raised so that tests measure behaviour.
 */
export class AlertRoutesContext extends TestContext {
  static open(): Promise<AlertRoutesContext> {
    return AlertRoutesContext.start({
      modules: (reader) => [
        ...authModules(reader),
        ...queryApiModules(reader),
        ...alertEngineModules(reader),
      ],
      fixtures: [authFixtures, queryApiFixtures],
      env: { RATE_LIMIT_DEFAULT: 'second=100000' },
    });
  }

  /**
   * Registers a vehicle and makes sure alert-engine's projection has it, as its snapshot consumer
   * would (version 0: any real snapshot is newer and replaces the row).
   */
  async newProjectedVehicle(name: string, companyIds: number[]): Promise<TestVehicle> {
    const vehicle = await this.newVehicle({ name, companyIds });
    await this.database.pool.query(
      `INSERT INTO alerts.vehicles (vehicle_id, name, company_ids, tags, version) VALUES ($1, $2, $3, '{}', 0)
       ON CONFLICT (vehicle_id) DO NOTHING`,
      [vehicle.id, vehicle.name, vehicle.companyIds],
    );
    return vehicle;
  }

  /** Writes an alert record as the engine would; returns its id. */
  async insertRecord(record: TestRecord): Promise<number> {
    const { rows } = await this.database.pool.query<{ id: string }>(
      `INSERT INTO alerts.records (utc_time, company_id, configuration_id, alert_type_id, vehicle_id, vehicle_name,
         description, lat, lng, course, address, is_read)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 90, $10, $11) RETURNING id`,
      [
        record.utcTime,
        record.companyId,
        record.configurationId,
        record.alertTypeId,
        record.vehicle.id,
        record.vehicle.name,
        record.description ?? `Alert of type ${record.alertTypeId}`,
        record.lat ?? 52.52,
        record.lng ?? 13.405,
        record.address === undefined ? 'Unter den Linden 1, Berlin' : record.address,
        record.isRead ?? false,
      ],
    );
    return Number(rows[0].id);
  }

  /** The company's rule version, which every change of its configurations or geofences raises. */
  async ruleVersion(companyId: number): Promise<number> {
    const { rows } = await this.database.pool.query<{ version: string }>(
      'SELECT version FROM alerts.rule_versions WHERE company_id = $1',
      [companyId],
    );
    return rows.length ? Number(rows[0].version) : 0;
  }
}
