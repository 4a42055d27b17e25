import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AUTH_SCHEMA } from '../auth.schema.constants';

/** A company of a subtree, with its depth below the subtree's root (0: the root). */
export interface CompanyLevel {
  id: number;
  level: number;
}

/**
 * The SQL statements over the company tree (`auth.companies`) that the entity cannot express: the
 * walks up and down the hierarchy. Reads and writes of single companies go through the entity
 * (`Company`) in CompaniesService.
 */
@Injectable()
export class CompanyQueries {
  constructor(@InjectDataSource(AUTH_SCHEMA) private readonly dataSource: DataSource) {}

  /** The id of the nearest company that is not active, from `id` itself upwards; undefined when all are. */
  async blockingAncestorId(id: number): Promise<number | undefined> {
    const rows: { id: number }[] = await this.dataSource.query(
      `WITH RECURSIVE chain AS (
         SELECT id, parent_id, status, 0 AS depth FROM auth.companies WHERE id = $1
         UNION ALL
         SELECT c.id, c.parent_id, c.status, chain.depth + 1 FROM auth.companies c JOIN chain ON c.id = chain.parent_id
         WHERE chain.depth < 100
       )
       SELECT id FROM chain WHERE status <> 'active' ORDER BY depth LIMIT 1`,
      [id],
    );
    return rows.length ? rows[0].id : undefined;
  }

  /** The company `rootId` and every company below it, each with its depth under it. */
  subtree(rootId: number): Promise<CompanyLevel[]> {
    return this.dataSource.query(
      `WITH RECURSIVE tree AS (
         SELECT id, 0 AS level FROM auth.companies WHERE id = $1
         UNION ALL
         SELECT c.id, tree.level + 1 FROM auth.companies c JOIN tree ON c.parent_id = tree.id WHERE tree.level < 100
       )
       SELECT id, level FROM tree`,
      [rootId],
    );
  }
}
