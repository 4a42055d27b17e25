import { DAY_MS } from '@fleet/contracts';

/**
 * Time values as the public interface writes them: UTC with or without `Z`, the same instant in the
 * user's IANA zone with or without its offset, and the company's .NET-style display pattern.
 */

/** The company display pattern of a token that names none. */
export const DEFAULT_DATE_FORMAT = 'dd/MM/yyyy HH:mm:ss';

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 for Sunday to 6 for Saturday. */
  weekday: number;
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
const offsets = new Map<string, Map<number, number>>();
let cachedOffsetCount = 0;

function cachedOffset(instant: Date, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const quarter = Math.floor(instant.getTime() / QUARTER_HOUR_MS);
  let zone = offsets.get(timeZone);
  let offset = zone?.get(quarter);
  if (offset === undefined) {
    if (cachedOffsetCount >= 50_000) {
      offsets.clear();
      cachedOffsetCount = 0;
      zone = undefined;
    }
    if (zone === undefined) offsets.set(timeZone, (zone = new Map()));
    offset = offsetAt(instant, timeZone);
    zone.set(quarter, offset);
    cachedOffsetCount += 1;
  }
  return offset;
}

/** The wall clock of `instant` in `timeZone`. */
export function wallClock(instant: Date, timeZone: string): WallClock {
  const offsetMinutes = cachedOffset(instant, timeZone);
  return wallClockAt(instant.getTime() + offsetMinutes * 60_000, offsetMinutes);
}

/**
 * The calendar fields of `localMs` (an instant shifted by its offset, read as UTC), by integer
 * arithmetic: a record writes about ten time values, and a Date's getters or its ISO writer were a
 * visible share of a record's cost (docs/performance.md). Days to a civil date: H. Hinnant's `civil_from_days`.
 */
function wallClockAt(localMs: number, offsetMinutes: number): WallClock {
  const days = Math.floor(localMs / DAY_MS);
  let rest = localMs - days * DAY_MS;
  const millisecond = rest % 1000;
  rest = (rest - millisecond) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;

  const shifted = days + 719_468; // days from 0000-03-01
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1,
    hour,
    minute,
    second,
    millisecond,
    weekday: (((days + 4) % 7) + 7) % 7, // 1970-01-01 was a Thursday
    offsetMinutes,
  };
}

/** "00" to "99", so that padding a two-digit field is an index. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, '0'));

const pad = (value: number, width = 2) =>
  width === 2 && value >= 0 && value < 100 ? TWO_DIGITS[value] : String(Math.abs(value)).padStart(width, '0');

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

type Field = (clock: WallClock) => string;

const hour12 = (clock: WallClock) => (clock.hour % 12 === 0 ? 12 : clock.hour % 12);

/** What each .NET specifier writes. */
const FIELDS: Record<string, Field> = {
  yyyy: (clock) => pad(clock.year, 4),
  yy: (clock) => pad(clock.year % 100),
  MMMM: (clock) => monthNames[clock.month - 1],
  MMM: (clock) => monthNames[clock.month - 1].slice(0, 3),
  MM: (clock) => pad(clock.month),
  M: (clock) => String(clock.month),
  dddd: (clock) => dayNames[clock.weekday],
  ddd: (clock) => dayNames[clock.weekday].slice(0, 3),
  dd: (clock) => pad(clock.day),
  d: (clock) => String(clock.day),
  HH: (clock) => pad(clock.hour),
  H: (clock) => String(clock.hour),
  hh: (clock) => pad(hour12(clock)),
  h: (clock) => String(hour12(clock)),
  mm: (clock) => pad(clock.minute),
  m: (clock) => String(clock.minute),
  ss: (clock) => pad(clock.second),
  s: (clock) => String(clock.second),
  fff: (clock) => pad(clock.millisecond, 3),
  ff: (clock) => pad(clock.millisecond, 3).slice(0, 2),
  f: (clock) => pad(clock.millisecond, 3).slice(0, 1),
  tt: (clock) => (clock.hour < 12 ? 'AM' : 'PM'),
  zzz: (clock) => offsetText(clock.offsetMinutes),
};

/** A pattern cut once into literal text and fields; a company's pattern is used for every record. */
const compiledPatterns = new Map<string, (string | Field)[]>();

function compiledPattern(pattern: string): (string | Field)[] {
  let parts = compiledPatterns.get(pattern);
  if (parts === undefined) {
    parts = [];
    let end = 0;
    for (const match of pattern.matchAll(TOKEN)) {
      const token = match[0];
      if (match.index > end) parts.push(pattern.slice(end, match.index));
      parts.push(FIELDS[token] ?? (token.startsWith('\\') ? token.slice(1) : token.slice(1, -1)));
      end = match.index + token.length;
    }
    if (end < pattern.length) parts.push(pattern.slice(end));
    if (compiledPatterns.size >= 1_000) compiledPatterns.clear();
    compiledPatterns.set(pattern, parts);
  }
  return parts;
}

/**
 * Formats `instant` in `timeZone` with a .NET custom date-time pattern (`dd/MM/yyyy HH:mm:ss`,
 * `MM/dd/yyyy hh:mm tt`, ...). Supported specifiers: yyyy yy MMMM MMM MM M dddd ddd dd d HH H hh h
 * mm m ss s fff ff f tt zzz, quoted literals and backslash escapes; everything else is literal.
 */
export function formatDotNet(instant: Date, timeZone: string, pattern: string): string {
  const clock = wallClock(instant, timeZone);
  let text = '';
  for (const part of compiledPattern(pattern)) text += typeof part === 'string' ? part : part(clock);
  return text;
}

/**
 * A .NET TimeSpan string of the zone's offset from UTC at `at`: `05:30:00`, `-03:00:00`, `00:00:00`.
 * Taken from the IANA rules at request time, so it follows daylight saving time.
 */
export function utcOffsetOf(timeZone: string, at: Date = new Date()): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name ?? '');
  if (!match || !match[1]) return '00:00:00';
  return `${match[1] === '-' ? '-' : ''}${match[2]}:${match[3]}:00`;
}
