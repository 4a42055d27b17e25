import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A deleted key, as a revocation announces it. */
export interface DeletedKeyRow {
  id: number;
  company_id: number;
  deleted_at: Date;
}

/**
 * The SQL statements of API keys (`auth.api_keys`) that the entity cannot express: deleting keys and
 * answering what was deleted, in the caller's transaction (whose outbox announces them). Creating
 * and finding keys go through the entity (`ApiKey`) in ApiKeysService.
 */
@Injectable()
export class ApiKeyQueries {
  /** Marks the key `id` deleted, unless it already is; the key deleted now (none or one). */
  deleteById(manager: EntityManager, id: number): Promise<DeletedKeyRow[]> {
    return deleteWhere(manager, 'id = $1', [id]);
  }

  /** Marks every active key of the company carrying `label` deleted; the keys deleted now. */
  deleteByLabel(manager: EntityManager, companyId: number, label: string): Promise<DeletedKeyRow[]> {
    return deleteWhere(manager, 'company_id = $1 AND label = $2', [companyId, label]);
  }

  /** The keys deleted within the last `seconds`. */
  deletedWithin(manager: EntityManager, seconds: number): Promise<DeletedKeyRow[]> {
    return manager.query(
      `SELECT id, company_id, deleted_at FROM auth.api_keys
        WHERE deleted_at > now() - make_interval(secs => $1)`,
      [seconds],
    );
  }
}

/** Marks the active keys matching `condition` (over `params`) deleted; those keys. */
function deleteWhere(manager: EntityManager, condition: string, params: unknown[]): Promise<DeletedKeyRow[]> {
  // UPDATE ... RETURNING in a CTE: TypeORM's query() answers a bare one as [rows, count].
  return manager.query(
    `WITH done AS (
       UPDATE auth.api_keys SET deleted_at = now() WHERE ${condition} AND deleted_at IS NULL
       RETURNING id, company_id, deleted_at)
     SELECT * FROM done`,
    params,
  );
}
