import { EntityManager } from 'typeorm';

// The SQL of the vehicle registry that its TypeORM entity calls (vehicle-registry.service.ts) do not
// express; each statement runs in the caller's transaction (its `manager`).

/**
 * Maps a vehicle to `companyIds` (distinct), each mapping `reported` if the vehicle has a last
 * position (replaceVehicleCompanies says under which lock).
 */
export async function insertCompanyMappings(
  manager: EntityManager,
  vehicleId: number,
  companyIds: readonly number[],
): Promise<void> {
  await manager.query(
    `INSERT INTO query.vehicle_companies (vehicle_id, company_id, reported)
     SELECT $1, company_id, EXISTS (SELECT 1 FROM query.last_positions WHERE vehicle_id = $1)
       FROM unnest($2::int[]) AS company_id`,
    [vehicleId, companyIds],
  );
}
