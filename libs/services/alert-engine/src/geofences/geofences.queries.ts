import type { EntityManager } from 'typeorm';

/*
 * SQL of the geofences beyond their rows (TypeORM's Geofence entity; the rule version is
 * configurations/rule-versions.queries.ts). Runs in the caller's transaction, so a function of its
 * `manager`.
 */

/**
 * The ids of the company's configurations that are not deleted (active or not) and watch `geofenceId`,
 * by id.
 */
export async function configurationsWatching(
  manager: EntityManager,
  companyId: number,
  geofenceId: number,
): Promise<number[]> {
  const watching: { id: number }[] = await manager.query(
    `SELECT id FROM alerts.configurations
      WHERE company_id = $1 AND deleted_at IS NULL AND settings -> 'geofenceId' = to_jsonb($2::int)
      ORDER BY id`,
    [companyId, geofenceId],
  );
  return watching.map((row) => row.id);
}
