import { DAY_MS } from '@fleet/contracts';
import { readLegacyTime } from '@fleet/formats';
import { QueryApiException, QueryApiExceptionCode } from '../query-api.exception';

const invalid = (description: string) =>
  new QueryApiException(QueryApiExceptionCode.InvalidTimeRange, description);

/** Longest history range one request may ask for. */
export const MAX_RANGE_DAYS = 31;

/** `from`/`to` of the V2 history routes (ISO 8601, already validated): default the last 24 hours. */
export function timeRangeOf(from?: string, to?: string, now = new Date()): { from: Date; to: Date } {
  const end = to ? new Date(to) : now;
  const start = from ? new Date(from) : new Date(end.getTime() - DAY_MS);
  return checkedRange(start, end);
}

function checkedRange(from: Date, to: Date): { from: Date; to: Date } {
  if (from.getTime() >= to.getTime()) throw invalid('from: must be before to');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw invalid(`to: the range may span at most ${MAX_RANGE_DAYS} days`);
  }
  return { from, to };
}

/**
 * A V1 date parameter (`@fleet/formats`' `readLegacyTime`): ISO 8601 with an offset or Z is taken as
 * given; a wall-clock value is read in `timeZone` (UTC for the UTC routes, the token's zone for
 * GetReplayUserTime). 422 naming the field otherwise.
 */
export function parseLegacyTime(field: string, value: string, timeZone: string): Date {
  const read = readLegacyTime(value, timeZone);
  if (read === 'impossible') throw invalid(`${field}: "${value}" is not a valid date`);
  if (read === undefined)
    throw invalid(`${field}: "${value}" is not a date (ISO 8601 or yyyy-MM-dd HH:mm:ss)`);
  return read;
}

export function legacyRangeOf(from: string, to: string, timeZone: string): { from: Date; to: Date } {
  return checkedRange(parseLegacyTime('from', from, timeZone), parseLegacyTime('to', to, timeZone));
}
