import { isISO8601, ValidateBy, ValidationOptions } from 'class-validator';

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
