/**
 * Time values as the public interface writes them: UTC with or without `Z`, the same instant in the
 * user's IANA zone with or without its offset, and the company's .NET-style display pattern.
 */

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Offset from UTC in minutes at that instant (DST-aware). */
  offsetMinutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** UTC offset (minutes) of `timeZone` at `instant`, from the IANA rules via Intl. */
function offsetAt(instant: Date, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * Offsets change only on quarter-hour boundaries (every IANA transition falls on one), so one Intl
 * call per zone and quarter hour serves every instant in it: Intl was the costliest part of a record.
 */
const QUARTER_HOUR_MS = 900_000;
const offsets = new Map<string, number>();

function cachedOffset(instant: Date, timeZone: string): number {
  const key = `${timeZone}@${Math.floor(instant.getTime() / QUARTER_HOUR_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size > 50_000) offsets.clear();
    offset = offsetAt(instant, timeZone);
    offsets.set(key, offset);
  }
  return offset;
}

/** The wall clock of `instant` in `timeZone`. */
export function wallClock(instant: Date, timeZone: string): WallClock {
  const offsetMinutes = cachedOffset(instant, timeZone);
  const shifted = new Date(instant.getTime() + offsetMinutes * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
    offsetMinutes,
  };
}

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

function isoLocal(clock: WallClock): string {
  const fraction = clock.millisecond ? `.${pad(clock.millisecond, 3)}` : '';
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}${fraction}`;
}

function offsetText(minutes: number): string {
  return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** `2024-03-31T10:00:00` – UTC without an offset (V2 `utcTime`). */
export function utcWithoutOffset(instant: Date): string {
  return isoLocal(wallClock(instant, 'UTC'));
}

/** `2024-03-31T10:00:00Z` – UTC ending in Z (V1). */
export function utcWithZ(instant: Date): string {
  return `${utcWithoutOffset(instant)}Z`;
}

/** `2024-03-31T12:00:00` – the user's wall clock without an offset (V2 `userTime`). */
export function userTimeWithoutOffset(instant: Date, timeZone: string): string {
  return isoLocal(wallClock(instant, timeZone));
}

/** `2024-03-31T12:00:00+02:00` – the user's wall clock with its offset at that instant (V1, trips). */
export function userTimeWithOffset(instant: Date, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  return `${isoLocal(clock)}${offsetText(clock.offsetMinutes)}`;
}

const TOKEN = /yyyy|yy|MMMM|MMM|MM|M|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|fff|ff|f|tt|zzz|'[^']*'|"[^"]*"|\\./g;
const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * Formats `instant` in `timeZone` with a .NET custom date-time pattern (`dd/MM/yyyy HH:mm:ss`,
 * `MM/dd/yyyy hh:mm tt`, ...). Supported specifiers: yyyy yy MMMM MMM MM M dddd ddd dd d HH H hh h
 * mm m ss s fff ff f tt zzz, quoted literals and backslash escapes; everything else is literal.
 */
export function formatDotNet(instant: Date, timeZone: string, pattern: string): string {
  const clock = wallClock(instant, timeZone);
  const hour12 = clock.hour % 12 === 0 ? 12 : clock.hour % 12;
  const weekday = new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay();
  return pattern.replace(TOKEN, (token) => {
    switch (token) {
      case 'yyyy':
        return pad(clock.year, 4);
      case 'yy':
        return pad(clock.year % 100);
      case 'MMMM':
        return monthNames[clock.month - 1];
      case 'MMM':
        return monthNames[clock.month - 1].slice(0, 3);
      case 'MM':
        return pad(clock.month);
      case 'M':
        return String(clock.month);
      case 'dddd':
        return dayNames[weekday];
      case 'ddd':
        return dayNames[weekday].slice(0, 3);
      case 'dd':
        return pad(clock.day);
      case 'd':
        return String(clock.day);
      case 'HH':
        return pad(clock.hour);
      case 'H':
        return String(clock.hour);
      case 'hh':
        return pad(hour12);
      case 'h':
        return String(hour12);
      case 'mm':
        return pad(clock.minute);
      case 'm':
        return String(clock.minute);
      case 'ss':
        return pad(clock.second);
      case 's':
        return String(clock.second);
      case 'fff':
        return pad(clock.millisecond, 3);
      case 'ff':
        return pad(clock.millisecond, 3).slice(0, 2);
      case 'f':
        return pad(clock.millisecond, 3).slice(0, 1);
      case 'tt':
        return clock.hour < 12 ? 'AM' : 'PM';
      case 'zzz':
        return offsetText(clock.offsetMinutes);
      default:
        return token.startsWith('\\') ? token.slice(1) : token.slice(1, -1);
    }
  });
}
