import { wallClock } from './zoned-time';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A date parameter of the V1 interface, read as every V1 route reads it: ISO 8601 with an offset or Z
 * is the instant it names; a wall-clock value (`yyyy-MM-dd HH:mm[:ss[.fff]]`, `yyyy-MM-ddTHH:mm:ss`
 * or `yyyy-MM-dd`) is read in `timeZone`, across DST changes. Returns `'impossible'` for a well-formed
 * value that names no real time (`2026-02-30`, `25:00`) and undefined for text that is no date.
 */
export function readLegacyTime(value: string, timeZone: string): Date | 'impossible' | undefined {
  const text = value.trim();
  const local = LOCAL.exec(text) ?? (DATE_ONLY.test(text) ? LOCAL.exec(`${text} 00:00:00`) : null);
  if (local) {
    const [, y, mo, d, h, mi, s = '0', ms = '0'] = local;
    const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, +ms.padEnd(3, '0'));
    const check = new Date(asUtc);
    if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) {
      return 'impossible';
    }
    // Two passes find the instant whose wall clock in the zone is the given one, across DST changes.
    let instant = asUtc - wallClock(new Date(asUtc), timeZone).offsetMinutes * 60_000;
    instant = asUtc - wallClock(new Date(instant), timeZone).offsetMinutes * 60_000;
    return new Date(instant);
  }
  if (WITH_OFFSET.test(text)) {
    const parsed = new Date(text);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return undefined;
}
