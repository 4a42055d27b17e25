import { DAY_MS } from '@fleet/contracts';
import { readLegacyTime } from '@fleet/formats';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';

/** One UTC day: [from, to). */
export interface UtcDay {
  from: Date;
  to: Date;
}

/**
 * A date parameter of the alert routes, read as the V1 routes read theirs (`@fleet/formats`'
 * `readLegacyTime`) in UTC: ISO 8601 with an offset or Z is that instant; `yyyy-MM-dd`,
 * `yyyy-MM-dd HH:mm:ss` or a date-time without an offset is read as UTC. 422 naming `field` otherwise.
 */
export function utcInstantOf(field: string, value: string): Date {
  const instant = readLegacyTime(value, 'UTC');
  if (instant instanceof Date) return instant;
  throw new AlertEngineException(
    AlertEngineExceptionCode.InvalidRecordQuery,
    instant === 'impossible'
      ? `${field}: "${value}" is not a valid date`
      : `${field}: "${value}" is not a date (yyyy-MM-dd, or ISO 8601 such as 2026-04-28T10:00:00Z)`,
  );
}

/**
 * The UTC day a record is looked up on (`{date}` of update-read-status, `date` of V1 SetAlertAsRead):
 * the UTC day of the instant {@link utcInstantOf} reads, so `2026-04-28`, `2026-04-28T23:30:00Z` and
 * `2026-04-29T01:30:00+02:00` all name 28 April.
 */
export function utcDayOf(field: string, value: string): UtcDay {
  const from = Math.floor(utcInstantOf(field, value).getTime() / DAY_MS) * DAY_MS;
  return { from: new Date(from), to: new Date(from + DAY_MS) };
}
