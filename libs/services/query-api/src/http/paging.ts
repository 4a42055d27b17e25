import { Page, PageQuery } from '@fleet/platform';
import { Slice } from '../positions/position-reader';

export const sliceOf = (query: PageQuery): Slice => ({
  limit: query.pageSize,
  offset: (query.page - 1) * query.pageSize,
});

/** The V2 envelope of a page the database already cut, given the total it counted. */
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
