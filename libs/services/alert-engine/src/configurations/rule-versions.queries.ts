import type { EntityManager } from 'typeorm';

/*
 * SQL that writes the companies' rule versions (`alerts.rule_versions`; the engine reads them,
 * engine/rule-sets.queries.ts). Exported by the package: tests and benches set rules up through it.
 */

/**
 * Raises the company's rule version inside the caller's transaction. Every change to a company's
 * configurations or geofences calls it, so that each engine replica, which compares the version with
 * the rules it holds before evaluating a batch, reloads exactly the companies that changed.
 */
export async function bumpRuleVersion(manager: EntityManager, companyId: number): Promise<void> {
  await manager.query(
    `INSERT INTO alerts.rule_versions (company_id, version) VALUES ($1, 1)
     ON CONFLICT (company_id) DO UPDATE SET version = alerts.rule_versions.version + 1`,
    [companyId],
  );
}
