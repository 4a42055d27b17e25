import type { EntityManager } from 'typeorm';

/*
 * SQL of what only the database can tell about a configuration's definition (the rows themselves are
 * TypeORM's AlertConfiguration entity; the rule version is rule-versions.queries.ts). Both run in the
 * transaction that stores the configuration, so they are functions of its `manager`.
 */

/**
 * Whether `geofenceId` is a geofence of the company that is not deleted; when it is, its row stays
 * share-locked until the transaction ends, so that its deletion waits and then sees this configuration.
 */
export async function holdCompanyGeofence(
  manager: EntityManager,
  geofenceId: number,
  companyId: number,
): Promise<boolean> {
  const found: unknown[] = await manager.query(
    `SELECT 1 FROM alerts.geofences WHERE id = $1 AND company_id = $2 AND deleted_at IS NULL FOR SHARE`,
    [geofenceId, companyId],
  );
  return found.length > 0;
}

/** Which of `vehicleIds` alert-engine's projection of the registry maps to the company. */
export async function vehiclesOfCompany(
  manager: EntityManager,
  vehicleIds: readonly number[],
  companyId: number,
): Promise<number[]> {
  const mapped: { vehicle_id: number }[] = await manager.query(
    `SELECT vehicle_id FROM alerts.vehicles WHERE vehicle_id = ANY($1::int[]) AND $2 = ANY(company_ids)`,
    [vehicleIds, companyId],
  );
  return mapped.map((row) => row.vehicle_id);
}
