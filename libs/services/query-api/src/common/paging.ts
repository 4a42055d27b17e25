import { Slice } from '@fleet/platform';

// The SQL paging helpers are the platform's, shared by every service's list routes.
export { Counted, PagedRow, pagedRows, Slice, sliceOf } from '@fleet/platform';

/** Most records a V1 list returns (V1 has no pagination); documented in docs/telemetry.md. */
export const LEGACY_LIST_LIMIT = 10_000;

/** Everything a V1 list returns. */
export const LEGACY_ALL: Slice = { limit: LEGACY_LIST_LIMIT, offset: 0 };
