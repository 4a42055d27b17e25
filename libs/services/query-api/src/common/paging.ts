import { PageQuery } from '@fleet/platform';

/** The rows of one page: `limit` rows after `offset`. */
export interface Slice {
  limit: number;
  offset: number;
}

/** One page of rows and the count of all matches. */
export interface Counted<T> {
  rows: T[];
  total: number;
}

/** Most records a V1 list returns (V1 has no pagination); documented in docs/telemetry.md. */
export const LEGACY_LIST_LIMIT = 10_000;

/** Everything a V1 list returns. */
export const LEGACY_ALL: Slice = { limit: LEGACY_LIST_LIMIT, offset: 0 };

export const sliceOf = (query: PageQuery): Slice => ({
  limit: query.pageSize,
  offset: (query.page - 1) * query.pageSize,
});

/** A row of a paged query: `in_page` is null on the one row that only carries the total. */
export type PagedRow<R> = R & { in_page: boolean | null };

/**
 * A paged query returns its page LEFT JOINed to the count of all matches (`FROM (SELECT count(*) AS
 * total ...) counted LEFT JOIN LATERAL (SELECT true AS in_page, ... LIMIT OFFSET) page ON true`), so
 * that a page past the end still carries the total: one row with `in_page` null stands for no rows.
 * (A `count(*) OVER ()` column would have no row to ride on there, and would report 0.)
 */
export function pagedRows<R extends { in_page: boolean | null; total: string | number }>(
  rows: R[],
): { rows: R[]; total: number } {
  return { rows: rows.filter((row) => row.in_page), total: rows.length ? Number(rows[0].total) : 0 };
}
