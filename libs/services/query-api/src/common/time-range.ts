import { wallClock } from '@fleet/formats';
import { QueryApiException, QueryApiExceptionCode } from '../query-api.exception';

const invalid = (description: string) =>
  new QueryApiException(QueryApiExceptionCode.InvalidTimeRange, description);

/** Longest history range one request may ask for. */
export const MAX_RANGE_DAYS = 31;
const DAY_MS = 86_400_000;

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

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A V1 date parameter: ISO 8601 with an offset or Z is taken as given; a wall-clock value
 * (`yyyy-MM-dd HH:mm[:ss]`, `yyyy-MM-ddTHH:mm:ss` or `yyyy-MM-dd`) is read in `timeZone` (UTC for the
 * UTC routes, the token's zone for GetReplayUserTime).
 */
export function parseLegacyTime(field: string, value: string, timeZone: string): Date {
  const text = value.trim();
  const local = LOCAL.exec(text) ?? (DATE_ONLY.test(text) ? LOCAL.exec(`${text} 00:00:00`) : null);
  if (local) {
    const [, y, mo, d, h, mi, s = '0', ms = '0'] = local;
    const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, +ms.padEnd(3, '0'));
    const check = new Date(asUtc);
    if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) {
      throw invalid(`${field}: "${value}" is not a valid date`);
    }
    // Two passes find the instant whose wall clock in the zone is the given one, across DST changes.
    let instant = asUtc - wallClock(new Date(asUtc), timeZone).offsetMinutes * 60_000;
    instant = asUtc - wallClock(new Date(instant), timeZone).offsetMinutes * 60_000;
    return new Date(instant);
  }
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const parsed = new Date(text);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  throw invalid(`${field}: "${value}" is not a date (ISO 8601 or yyyy-MM-dd HH:mm:ss)`);
}

export function legacyRangeOf(from: string, to: string, timeZone: string): { from: Date; to: Date } {
  return checkedRange(parseLegacyTime('from', from, timeZone), parseLegacyTime('to', to, timeZone));
}
