import { types } from 'pg';

const TIMESTAMPTZ = types.builtins.TIMESTAMPTZ;
const parseWithLibrary = types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date | number;

const ZERO = 48;
const [DASH, SPACE, COLON, DOT, PLUS] = ['-', ' ', ':', '.', '+'].map((character) => character.charCodeAt(0));

const isDigit = (code: number) => code >= ZERO && code <= ZERO + 9;

/** The value of `count` decimal digits at `at`, or -1 if any of them is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let index = at; index < at + count; index++) {
    const code = text.charCodeAt(index);
    if (!isDigit(code)) return -1;
    value = value * 10 + code - ZERO;
  }
  return value;
}

/**
 * A `timestamptz` as PostgreSQL writes it in text with DateStyle ISO, the driver's default:
 * `2026-11-23 15:44:01.123456+00`, with a fraction of 1–6 digits or none and an offset of `±HH`,
 * `±HH:MM` or `±HH:MM:SS`. Anything else (BC, infinity, years before 1000 or after 9999) goes to the
 * driver's own parser (postgres-date), whose answers this one repeats exactly, milliseconds truncated.
 *
 * Why: postgres-date runs three regular expressions per value, and a page of 50 last positions holds
 * 150 timestamps; it was 5 % of query-api's CPU under load (docs/performance.md).
 */
export function parseTimestamptz(text: string): Date | number {
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const separated =
    text.charCodeAt(4) === DASH &&
    text.charCodeAt(7) === DASH &&
    text.charCodeAt(10) === SPACE &&
    text.charCodeAt(13) === COLON &&
    text.charCodeAt(16) === COLON;
  // Field ranges need no check: Date.UTC below does the same arithmetic on them as postgres-date.
  if (!separated || year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
    return parseWithLibrary(text);
  }

  let at = 19;
  let millisecond = 0;
  if (text.charCodeAt(at) === DOT) {
    const first = at + 1;
    for (at = first; at < text.length && isDigit(text.charCodeAt(at)); at++);
    const fractionDigits = at - first;
    if (fractionDigits === 0 || fractionDigits > 6) return parseWithLibrary(text);
    // Truncated to whole milliseconds, as postgres-date's 1000 * parseFloat(".123456") is by Date.UTC.
    for (let index = first; index < first + 3; index++) {
      millisecond = millisecond * 10 + (index < at ? text.charCodeAt(index) - ZERO : 0);
    }
  }

  const sign = text.charCodeAt(at);
  const offsetHours = digits(text, at + 1, 2);
  let offsetMinutes = 0;
  let offsetSeconds = 0;
  const rest = text.length - at - 1;
  if (rest >= 5) {
    offsetMinutes = text.charCodeAt(at + 3) === COLON ? digits(text, at + 4, 2) : -1;
  }
  if (rest === 8) {
    offsetSeconds = text.charCodeAt(at + 6) === COLON ? digits(text, at + 7, 2) : -1;
  }
  if (
    (sign !== PLUS && sign !== DASH) ||
    (rest !== 2 && rest !== 5 && rest !== 8) ||
    offsetHours < 0 ||
    offsetMinutes < 0 ||
    offsetSeconds < 0
  ) {
    return parseWithLibrary(text);
  }
  const offsetMs = ((offsetHours * 60 + offsetMinutes) * 60 + offsetSeconds) * 1000;
  const utcMs = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  return new Date(sign === PLUS ? utcMs - offsetMs : utcMs + offsetMs);
}

/**
 * The driver's type parsers with {@link parseTimestamptz} for `timestamptz` in text, for the `types`
 * option of a pg pool (it applies to that pool only, not to every pg client in the process).
 */
export const fastTimestampTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): unknown {
    return oid === TIMESTAMPTZ && format !== 'binary'
      ? parseTimestamptz
      : types.getTypeParser(oid, format ?? 'text');
  },
};
