import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IntegerInput } from './inputs';

/** Largest `pageSize` any list route accepts (documented in docs/api-conventions.md). */
export const MAX_PAGE_SIZE = 500;

/** Largest `page`: its offset (page × pageSize) stays far inside what PostgreSQL's OFFSET takes. */
export const MAX_PAGE = 1_000_000;

/** `page` and `pageSize` of every paginated V2 route: 1 and 50 by default, integers, 422 otherwise. */
export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @IntegerInput(1, MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 })
  @IsOptional()
  @IntegerInput(1, MAX_PAGE_SIZE)
  pageSize: number = 50;
}

/** The V2 pagination envelope. */
export interface Page<T> {
  items: T[];
  totalResults: number;
  /** 1-based position of the page's last record among all results; 0 for an empty page. */
  lastResultIndex: number;
  currentPage: number;
  numberOfPages: number;
}

/** The V2 envelope of a page already cut, given the total count of all results. */
export function envelope<T>(items: T[], total: number, query: PageQuery): Page<T> {
  const offset = (query.page - 1) * query.pageSize;
  return {
    items,
    totalResults: total,
    lastResultIndex: items.length ? offset + items.length : 0,
    currentPage: query.page,
    numberOfPages: Math.ceil(total / query.pageSize),
  };
}

/** One page of a list held in memory. */
export function pageOf<T>(all: readonly T[], query: PageQuery): Page<T> {
  const offset = (query.page - 1) * query.pageSize;
  return envelope(all.slice(offset, offset + query.pageSize), all.length, query);
}

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
