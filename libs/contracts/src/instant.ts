import { isISO8601, ValidateBy, ValidationOptions } from 'class-validator';
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from './time';

/**
 * ISO 8601's extended calendar notation, the one JavaScript's `Date` reads exactly: a date, optionally
 * a time (minutes, seconds, a fraction) and an offset. ISO also has basic (`20240101T000000Z`), week
 * (`2024-W01-1`) and ordinal (`2024-100`) notations, which class-validator's isISO8601 accepts but
 * `Date` reads as Invalid Date or, for some, as another day.
 */
const EXTENDED = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * True when `value` is a date-time text that names one real instant and that `Date` reads as that
 * instant: the rule of every date-time the platform takes, in requests and in events.
 */
export function isInstantText(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    EXTENDED.test(value) &&
    isISO8601(value, { strict: true }) &&
    !Number.isNaN(Date.parse(value))
  );
}

/** The decorator form of {@link isInstantText}. */
export function IsInstantText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isInstantText',
      validator: {
        validate: (value) => isInstantText(value),
        defaultMessage: (args) =>
          `${args?.property ?? 'value'} must be an ISO 8601 date-time such as 2026-04-28T10:00:00Z`,
      },
    },
    options,
  );
}

/*
 * The canonical form: what `Date#toISOString` writes for years 1000-9999, and what every producer of
 * the platform's events writes. Position events carry two such texts each, and the services on their
 * path (ingest, the projections) format and read them several times an event; V8's own
 * `toISOString` and `Date.parse` took 0.6-1.3 µs a call on the 2-core machine, 5-10 % of those
 * services' CPU at tracker rates (docs/performance.md, "Tracker ports"). The two functions below do
 * the canonical form in plain arithmetic, each day's date part computed once, and leave every other form
 * to `Date` (instant.spec.ts holds them to `Date`'s answers).
 */

/** The canonical form (years 1000-9999; earlier years are left to `Date`, which reads them alike). */
const CANONICAL_INSTANT = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The two digits at `at` of a text already matched by CANONICAL_INSTANT, as a number. */
const twoDigits = (text: string, at: number) =>
  (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * True for a text in the canonical form whose fields name a real date and time (no 30 February, no
 * 24:00): one that `isInstantText` accepts too, at a small fraction of its cost.
 */
export function isCanonicalInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !CANONICAL_INSTANT.test(value)) return false;
  const year = twoDigits(value, 0) * 100 + twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return (
    day <= days && twoDigits(value, 11) <= 23 && twoDigits(value, 14) <= 59 && twoDigits(value, 17) <= 59
  );
}

/**
 * The date parts of the days seen lately, both ways: a position carries two instants that may fall on
 * different days (a fix buffered overnight, or read a day later), so one remembered day would be
 * computed again on every call. Cleared when full: a few days are in use at any time.
 */
const MAX_DAYS_REMEMBERED = 64;
/** Day number since the epoch → its `YYYY-MM-DDT`. */
const dayTexts = new Map<number, string>();
/** `YYYYMMDD` as a number → the day's first millisecond. */
const dayStarts = new Map<number, number>();

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= MAX_DAYS_REMEMBERED) map.clear();
  map.set(key, value);
  return value;
}

/** The milliseconds since the epoch an instant text names: `Date.parse(text)`, faster for the canonical form. */
export function instantMs(text: string): number {
  if (!isCanonicalInstant(text)) return Date.parse(text);
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const key = year * 10_000 + month * 100 + day;
  const startMs = dayStarts.get(key) ?? remember(dayStarts, key, Date.UTC(year, month - 1, day));
  return (
    startMs +
    twoDigits(text, 11) * HOUR_MS +
    twoDigits(text, 14) * MINUTE_MS +
    twoDigits(text, 17) * SECOND_MS +
    twoDigits(text, 20) * 10 +
    text.charCodeAt(22) -
    48
  );
}

/** The canonical text of an instant: `new Date(epochMs).toISOString()` (and its RangeError), faster. */
export function isoInstant(epochMs: number): string {
  // From 1970 to 9999: outside, and for fractions of a millisecond, Date's own answer.
  if (!Number.isInteger(epochMs) || epochMs < 0 || epochMs >= LAST_CANONICAL_MS) {
    return new Date(epochMs).toISOString();
  }
  const dayNumber = Math.floor(epochMs / DAY_MS);
  const dayText =
    dayTexts.get(dayNumber) ??
    remember(dayTexts, dayNumber, new Date(dayNumber * DAY_MS).toISOString().slice(0, 11));
  let rest = epochMs - dayNumber * DAY_MS;
  const hours = Math.floor(rest / HOUR_MS);
  rest -= hours * HOUR_MS;
  const minutes = Math.floor(rest / MINUTE_MS);
  rest -= minutes * MINUTE_MS;
  const seconds = Math.floor(rest / SECOND_MS);
  const millis = rest - seconds * SECOND_MS;
  return `${dayText}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** 10000-01-01T00:00:00.000Z, the first instant whose text has more than four year digits. */
const LAST_CANONICAL_MS = Date.UTC(10_000, 0, 1);

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
